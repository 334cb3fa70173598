package org.dsmscope.replay;

import java.util.Arrays;

/**
 * The replay's synchronization objects, one per distinct argument-1 address (a Java monitor is lock and condition
 * at once): lock owner and depth, barrier arrivals, and one FIFO list of waiting threads linked through
 * {@code next[thread]}. Arrays, grown as objects appear; nothing is allocated per call record once an object
 * exists.
 */
final class SyncObjects {
    private final LongIntMap index = new LongIntMap(64);
    long[] address = new long[16];
    int[] owner = new int[16];
    int[] depth = new int[16];
    /** Threads holding the lock in shared (read) mode. */
    int[] readers = new int[16];
    long[] ownerOffset = new long[16];
    /**
     * The sequence number of the last acquisition granted in the recorded order (critical-section argument 3,
     * SPEC §3), 0 if none yet: the next one granted is {@link #nextTurn} of it.
     */
    long[] granted = new long[16];
    int[] arrivals = new int[16];
    int[] parties = new int[16];
    long[] arrivalMax = new long[16];
    int[] head = new int[16];
    int[] tail = new int[16];
    int count;
    /** Next waiter of each thread in its object's list, -1 at the end. */
    final int[] next;

    SyncObjects(int threads) {
        next = new int[threads];
        Arrays.fill(next, -1);
    }

    /** The object at {@code addr}, created if new. */
    int of(long addr) {
        int i = index.get(addr);
        if (i >= 0) {
            return i;
        }
        if (count == address.length) {
            int c = count * 2;
            address = Arrays.copyOf(address, c);
            owner = Arrays.copyOf(owner, c);
            depth = Arrays.copyOf(depth, c);
            readers = Arrays.copyOf(readers, c);
            ownerOffset = Arrays.copyOf(ownerOffset, c);
            granted = Arrays.copyOf(granted, c);
            arrivals = Arrays.copyOf(arrivals, c);
            parties = Arrays.copyOf(parties, c);
            arrivalMax = Arrays.copyOf(arrivalMax, c);
            head = Arrays.copyOf(head, c);
            tail = Arrays.copyOf(tail, c);
        }
        i = count++;
        address[i] = addr;
        owner[i] = -1;
        head[i] = -1;
        tail[i] = -1;
        index.put(addr, i);
        return i;
    }

    /** The acquisition sequence number after {@code s}: 1 … 2^32 - 1, then 1 again (0 means "not recorded"). */
    static long nextTurn(long s) {
        return s >= 0xFFFF_FFFFL ? 1 : s + 1;
    }

    void enqueue(int obj, int t) {
        next[t] = -1;
        if (tail[obj] < 0) {
            head[obj] = t;
        } else {
            next[tail[obj]] = t;
        }
        tail[obj] = t;
    }

    /**
     * Removes and returns the first waiter whose wait kind ({@code waitKind[t]}) is {@code kind}, -1 if none.
     * One object can queue several kinds: a Java monitor is a lock and a condition at the same address.
     */
    int dequeue(int obj, int[] waitKind, int kind) {
        for (int t = head[obj]; t >= 0; t = next[t]) {
            if (waitKind[t] == kind) {
                remove(obj, t);
                return t;
            }
        }
        return -1;
    }

    /** The first waiter whose wait kind is {@code k1} or {@code k2}, not removed; -1 if none. */
    int first(int obj, int[] waitKind, int k1, int k2) {
        for (int t = head[obj]; t >= 0; t = next[t]) {
            if (waitKind[t] == k1 || waitKind[t] == k2) {
                return t;
            }
        }
        return -1;
    }

    /** Removes {@code t} from the list of {@code obj} (no-op if absent). */
    void remove(int obj, int t) {
        int prev = -1;
        for (int u = head[obj]; u >= 0; prev = u, u = next[u]) {
            if (u == t) {
                if (prev < 0) {
                    head[obj] = next[u];
                } else {
                    next[prev] = next[u];
                }
                if (tail[obj] == u) {
                    tail[obj] = prev;
                }
                next[u] = -1;
                return;
            }
        }
    }
}
