package org.dsmscope.dsm;

import java.util.HashMap;
import java.util.Map;

/**
 * An eventcount (Reed and Kanodia; seed 002 §3.3). The count is the sum over members of the advances each made;
 * each member knows its own exactly and learns the others' from unreliable multicasts, keeping the highest
 * value heard, so a lost update is healed by the next one from the same member or by {@code eventSync}. Until
 * then the local count can be stale, which the monitor detects.
 *
 * <p>Threading: guarded by the eventcount's own monitor; waiters are woken by {@code notifyAll}.
 */
public final class Eventcount {
    /** Eventcount id (creation order, the same in every member). */
    public final int id;
    private final Map<Integer, Long> advances = new HashMap<>();
    private long count;

    Eventcount(int id) {
        this.id = id;
    }

    /** The local count (possibly stale). */
    public synchronized long count() {
        return count;
    }

    /** Advances made by {@code rank} as known here. */
    synchronized long of(int rank) {
        return advances.getOrDefault(rank, 0L);
    }

    /** Every member's advances as known here. */
    synchronized Map<Integer, Long> known() {
        return new HashMap<>(advances);
    }

    /** Raises rank's advances to {@code n} if higher; returns the new count, or -1 if nothing changed. */
    synchronized long raise(int rank, long n) {
        long old = advances.getOrDefault(rank, 0L);
        if (n <= old) {
            return -1;
        }
        advances.put(rank, n);
        count += n - old;
        notifyAll();
        return count;
    }
}
