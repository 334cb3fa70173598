package org.dsmscope.monitor.event;

/** The three monitoring levels of seed 002 §4.1; each is a class of events that can be switched at run time. */
public enum Level {
    /** Programming model (§4.1.1): segments, consistency points, eventcounts, sequencers. */
    PROGRAM,
    /** Logical messages (§4.1.2): send / receive of data, request and reply messages. */
    MESSAGE,
    /** Transport protocol (§4.1.3): fragments, ACKs, NACKs, retransmissions, duplicates, discards. */
    TRANSPORT;

    /** The bit of this level in an enabled-classes mask. */
    public int bit() {
        return 1 << ordinal();
    }

    /** Mask with every level enabled. */
    public static final int ALL = 7;
}
