package org.dsmscope.ciat.comm;

import java.util.Arrays;

/**
 * Partial communication results of accesses whose bytes lie on pages of several partitions in a partitioned
 * replay (SPEC §4 "Partitioning"): each partition logs what its bytes showed; {@link #combine} merges the logs by
 * access number so that the counts equal a serial run's (SPEC §5: an access counts once, RAW if any byte is, ...).
 * Primitive growable arrays; records are appended in access order.
 */
public final class PartialLog implements java.io.Serializable {
    private static final long serialVersionUID = 1L;
    private int n;
    private long[] seq = new long[16];
    private int[] phase = new int[16];
    private int[] result = new int[16];
    private boolean[] store = new boolean[16];
    private int[] cpu = new int[16];
    private long[] clock = new long[16];
    private int[] pairFrom = new int[17];
    private int[] pairs = new int[16];
    private int pairCount;

    /** Starts the record of access number {@code s} (call {@link #pair} for its pairs, then {@link #end}). */
    public void begin(long s, int phaseIndex, boolean isStore, int processor, long clk) {
        if (n == seq.length) {
            int c = n * 2;
            seq = Arrays.copyOf(seq, c);
            phase = Arrays.copyOf(phase, c);
            result = Arrays.copyOf(result, c);
            store = Arrays.copyOf(store, c);
            cpu = Arrays.copyOf(cpu, c);
            clock = Arrays.copyOf(clock, c);
            pairFrom = Arrays.copyOf(pairFrom, c + 1);
        }
        seq[n] = s;
        phase[n] = phaseIndex;
        store[n] = isStore;
        cpu[n] = processor;
        clock[n] = clk;
        pairFrom[n] = pairCount;
    }

    /** A COMM_MAT pair (row-major index) of the record begun last. */
    void pair(int k) {
        if (pairCount == pairs.length) {
            pairs = Arrays.copyOf(pairs, pairCount * 2);
        }
        pairs[pairCount++] = k;
    }

    /** Ends the record begun last with this partition's result code. */
    public void end(int code) {
        result[n] = code;
        n++;
        pairFrom[n] = pairCount;
    }

    /** Records logged. */
    public int size() {
        return n;
    }

    /** Receives a combined access. */
    public interface Sink {
        /** One access: {@code type} a {@link CommEventSink} type or -1 for no event; degree as the event trace. */
        void access(long seq, int phaseIndex, long clock, int processor, int type, int degree, int[] pairs,
                int pairCount);
    }

    /** Combines the logs of all partitions, in access order, into {@code sink}. */
    public static void combine(java.util.List<PartialLog> logs, Sink sink) {
        int[] at = new int[logs.size()];
        int[] scratch = new int[64];
        while (true) {
            long next = Long.MAX_VALUE;
            for (int i = 0; i < logs.size(); i++) {
                PartialLog l = logs.get(i);
                if (at[i] < l.n && l.seq[at[i]] < next) {
                    next = l.seq[at[i]];
                }
            }
            if (next == Long.MAX_VALUE) {
                return;
            }
            int best = 0;
            boolean waw = false;
            boolean isStore = false;
            int phaseIndex = 0;
            int processor = 0;
            long clk = 0;
            int np = 0;
            for (int i = 0; i < logs.size(); i++) {
                PartialLog l = logs.get(i);
                int r = at[i];
                if (r < l.n && l.seq[r] == next) {
                    isStore = l.store[r];
                    phaseIndex = l.phase[r];
                    processor = l.cpu[r];
                    clk = l.clock[r];
                    int code = l.result[r];
                    if (code > best) {
                        best = code;
                    } else if (code < 0) {
                        waw = true;
                    }
                    for (int p = l.pairFrom[r]; p < l.pairFrom[r + 1]; p++) {
                        int k = l.pairs[p];
                        boolean dup = false;
                        for (int q = 0; q < np; q++) {
                            dup |= scratch[q] == k;
                        }
                        if (!dup) {
                            if (np == scratch.length) {
                                scratch = Arrays.copyOf(scratch, np * 2);
                            }
                            scratch[np++] = k;
                        }
                    }
                    at[i]++;
                }
            }
            int type = -1;
            int degree = 0;
            if (isStore) {
                if (best > 0) {
                    type = CommEventSink.WAR;
                    degree = best;
                } else if (waw) {
                    type = CommEventSink.WAW;
                    degree = 1;
                }
            } else if (best == 2) {
                type = CommEventSink.RAW;
            } else if (best == 1) {
                type = CommEventSink.RAR;
            }
            sink.access(next, phaseIndex, clk, processor, type, degree, scratch, np);
        }
    }
}
