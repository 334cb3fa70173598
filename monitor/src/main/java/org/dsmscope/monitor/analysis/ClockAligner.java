package org.dsmscope.monitor.analysis;

import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import org.dsmscope.monitor.event.EventBuffer;
import org.dsmscope.monitor.event.EventType;

/**
 * Aligns the clocks of separate processes (seed 002 §4.2: traces from several machines on one time axis) from
 * logical-message send / receive pairs. For each ordered pair (p, q) it keeps the smallest receive-minus-send
 * difference A(p,q) = delay + (skew q − skew p); the offset between p and q is estimated as
 * (A(p,q) − A(q,p)) / 2, spread from the lowest process id over a breadth-first tree, then tightened
 * (Bellman-Ford) so that after correction no receive is before its send: off(q) − off(p) ≤ A(p,q).
 * Corrected time = recorded time − offset of its process.
 */
public final class ClockAligner {
    private final Map<Long, Long> sends;
    private final Map<Long, long[]> minDelta = new HashMap<>();
    private final TreeSet<Integer> procs = new TreeSet<>();
    private final java.util.ArrayDeque<long[]> pendingRecv = new java.util.ArrayDeque<>();
    private final int remember;
    private int matched;

    /** An aligner that remembers every send (post-mortem use on a recording). */
    public ClockAligner() {
        this(Integer.MAX_VALUE);
    }

    /**
     * An aligner for live use that remembers at most {@code remember} sends and unmatched receives (the oldest
     * are forgotten), so its memory stays bounded however long the program runs.
     */
    public ClockAligner(int remember) {
        this.remember = remember;
        this.sends = new java.util.LinkedHashMap<>(16, 0.75f, false) {
            private static final long serialVersionUID = 1L;

            @Override
            protected boolean removeEldestEntry(Map.Entry<Long, Long> eldest) {
                return size() > ClockAligner.this.remember;
            }
        };
    }

    private static long key(int proc, long seq) {
        return ((long) proc << 40) ^ seq;
    }

    private static long pair(int p, int q) {
        return ((long) p << 32) | (q & 0xFFFFFFFFL);
    }

    /** Feeds a batch of events (any order). */
    public void add(EventBuffer b) {
        for (int i = 0; i < b.size(); i++) {
            int t = b.type[i];
            procs.add(b.proc[i]);
            if (t == EventType.MSG_SEND_BEGIN.code) {
                sends.put(key(b.proc[i], b.b[i]), b.time[i]);
            } else if (t == EventType.MSG_RECEIVE_END.code && b.peer[i] >= 0) {
                long[] r = {b.peer[i], b.proc[i], b.b[i], b.time[i]};
                if (!match(r)) {
                    pendingRecv.add(r);
                    if (pendingRecv.size() > remember) {
                        pendingRecv.poll();
                    }
                }
            }
        }
    }

    /** Matches a receive with its send if known, updating the smallest difference of its direction. */
    private boolean match(long[] r) {
        Long s = sends.get(key((int) r[0], r[2]));
        if (s == null) {
            return false;
        }
        long d = r[3] - s;
        long[] cur = minDelta.computeIfAbsent(pair((int) r[0], (int) r[1]), k -> new long[] {Long.MAX_VALUE});
        cur[0] = Math.min(cur[0], d);
        matched++;
        return true;
    }

    /** Matches receives that arrived before their sends (batches of different processes come in any order). */
    private void matchPending() {
        pendingRecv.removeIf(this::match);
    }

    /** Number of matched send / receive pairs. */
    public int matched() {
        matchPending();
        return matched;
    }

    /**
     * The processes whose offset rests on messages both ways with another process (after {@link #offsets}); the
     * others keep offset 0 because nothing relates their clocks yet.
     */
    public TreeSet<Integer> linked() {
        TreeSet<Integer> out = new TreeSet<>();
        for (long k : minDelta.keySet()) {
            int p = (int) (k >> 32);
            int q = (int) k;
            if (minDelta.containsKey(pair(q, p))) {
                out.add(p);
                out.add(q);
            }
        }
        return out;
    }

    /** Offsets (ns) to subtract from each process's timestamps; the lowest id gets 0. */
    public TreeMap<Integer, Long> offsets() {
        matchPending();
        TreeMap<Integer, Long> off = new TreeMap<>();
        if (procs.isEmpty()) {
            return off;
        }
        java.util.ArrayDeque<Integer> queue = new java.util.ArrayDeque<>();
        for (int root : procs) {
            if (off.containsKey(root)) {
                continue;
            }
            off.put(root, 0L);
            queue.add(root);
            while (!queue.isEmpty()) {
                int p = queue.poll();
                for (int q : procs) {
                    if (off.containsKey(q)) {
                        continue;
                    }
                    long[] pq = minDelta.get(pair(p, q));
                    long[] qp = minDelta.get(pair(q, p));
                    if (pq != null && qp != null) {
                        off.put(q, off.get(p) + (pq[0] - qp[0]) / 2);
                        queue.add(q);
                    }
                }
            }
        }
        // tighten: off(q) - off(p) <= A(p,q) for every observed direction
        for (int iter = 0; iter < procs.size() + 1; iter++) {
            boolean changed = false;
            for (Map.Entry<Long, long[]> e : minDelta.entrySet()) {
                int p = (int) (e.getKey() >> 32);
                int q = (int) (long) e.getKey();
                long bound = off.get(p) + e.getValue()[0];
                if (off.get(q) > bound) {
                    off.put(q, bound);
                    changed = true;
                }
            }
            if (!changed) {
                break;
            }
        }
        return off;
    }

    /** Aligns a recording: feeds every chunk and returns the offsets. */
    public static TreeMap<Integer, Long> of(java.nio.file.Path recording) throws java.io.IOException {
        ClockAligner al = new ClockAligner();
        try (org.dsmscope.monitor.record.RecordingReader r =
                org.dsmscope.monitor.record.RecordingReader.openLenient(recording)) {
            while (r.nextChunk()) {
                al.add(r.chunk());
            }
        }
        return al.offsets();
    }
}
