package org.dsmscope.dsm;

/**
 * A sequencer (seed 002 §3.3) handing out tickets 0, 1, 2, … from a migrating ticket master: the member that
 * holds the master role answers a request with the next ticket and hands the role to the requester, so a member
 * asking repeatedly soon draws tickets locally; other members answer with a redirection hint.
 *
 * <p>Threading: guarded by the sequencer's own monitor.
 */
public final class Sequencer {
    /** Sequencer id (creation order, the same in every member). */
    public final int id;
    boolean master;
    long next;
    int hint;

    Sequencer(int id, boolean master) {
        this.id = id;
        this.master = master;
    }

    /** True when this member currently holds the ticket master role. */
    public synchronized boolean isMaster() {
        return master;
    }
}
