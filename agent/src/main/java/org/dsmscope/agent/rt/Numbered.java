package org.dsmscope.agent.rt;

/** Something that gives sequence numbers 1, 2, 3 … (SPEC §3's per-object numbers): the last one given. */
interface Numbered {
    /** The last number given (0: none yet). */
    long last();
}
