package org.dsmscope.ciat;

import java.util.concurrent.atomic.AtomicInteger;
import org.dsmscope.replay.CallEvent;
import org.dsmscope.replay.Phase;
import org.dsmscope.replay.PhaseTimes;

/**
 * A batch of replay callbacks, handed from the replay thread to CIAT's worker threads by {@link ParallelCiat} (SPEC
 * §4 "Partitioning"). Records are packed into one {@code long[]}, read front to back: a header word
 * ({@link #KIND_BITS} kind, 8 bits of memory type or branch kind, 20 bits of size, call index or object index, 16
 * bits of thread, 16 bits of processor) and then, by kind, the clock and the address (access, fetch: 3 words), the
 * clock, source and target (branch: 4), the clock (call: 2) or nothing (phase and end records: 1). Without
 * {@link #clocks} an access has no clock word (2 words: CIAT uses an access's clock only for its event trace). A record whose
 * thread, processor, type or size does not fit its header field is written as a {@link #WIDE} record of
 * {@link #MAX_WORDS} words with every field in full. One sequential stream of 16 or 24 bytes per access instead of
 * seven arrays (33 bytes): the worker's reading is the parallel mode's overhead (module README "Parallel analysis").
 * Preallocated and recycled: appending a record allocates nothing (phase records, a few per run, carry copies of
 * the replay's {@link Phase} and {@link PhaseTimes}). Every worker reads the whole batch; {@link #readers} counts
 * the workers still reading it, the last one recycles it.
 */
final class RecordBatch {
    static final int LOAD = 0;
    static final int STORE = 1;
    static final int SYNC_LOAD = 2;
    static final int SYNC_STORE = 3;
    static final int FETCH = 4;
    static final int BRANCH = 5;
    static final int CALL = 6;
    static final int PHASE_BEGIN = 7;
    static final int PHASE_END = 8;
    static final int END = 9;
    /** Header kind, then thread|cpu, small|size, clock, x, y in full words; the small field holds the real kind. */
    static final int WIDE = 10;
    static final int KIND_BITS = 4;
    static final int KIND_MASK = (1 << KIND_BITS) - 1;
    /** Longest record, in words (a wide one). */
    static final int MAX_WORDS = 6;

    /** Records at most (the tests use small batches). */
    final int capacity;
    /** Whether access records carry their clock (else they read as clock 0). */
    final boolean clocks;
    /** The packed records. */
    final long[] words;
    /** Words used. */
    int len;
    /** Records appended. */
    int n;
    /** Kind of the last record appended (the END record closes the stream). */
    int lastKind = -1;
    // Call records: CallEvent fields, indexed by the header's size field.
    final int[] callType;
    final long[] callStart;
    final long[] callEnd;
    final long[] callArgs;
    final long[] callWait;
    int calls;
    // Phase and times copies of phase and end records, indexed by the header's size field (two slots each).
    Object[] objects = new Object[8];
    int nObjects;
    final AtomicInteger readers = new AtomicInteger();

    RecordBatch(int capacity, boolean clocks) {
        this.capacity = capacity;
        this.clocks = clocks;
        words = new long[3 * capacity + MAX_WORDS];
        int nc = Math.max(4, capacity / 16);
        callType = new int[nc];
        callStart = new long[nc];
        callEnd = new long[nc];
        callArgs = new long[4 * nc];
        callWait = new long[nc];
    }

    /** True when no further record (of any kind) fits. */
    boolean full() {
        return n == capacity || len + MAX_WORDS > words.length || calls == callType.length;
    }

    void clear() {
        n = 0;
        len = 0;
        calls = 0;
        lastKind = -1;
        java.util.Arrays.fill(objects, 0, nObjects, null);
        nObjects = 0;
    }

    /** The header word, or -1 if a field does not fit (the record is then written wide). */
    private static long header(int kind, int small, int size, int t, int c) {
        if (((t | c) >>> 16) != 0 || (small >>> 8) != 0 || (size >>> 20) != 0) {
            return -1;
        }
        return kind | (long) small << 4 | (long) size << 12 | (long) t << 32 | (long) c << 48;
    }

    static int kind(long h) {
        return (int) h & KIND_MASK;
    }

    static int small(long h) {
        return (int) (h >>> 4) & 0xFF;
    }

    static int size(long h) {
        return (int) (h >>> 12) & 0xFFFFF;
    }

    static int thread(long h) {
        return (int) (h >>> 32) & 0xFFFF;
    }

    static int cpu(long h) {
        return (int) (h >>> 48);
    }

    private void wide(int kind, int small, int size, int t, int c, long clk, long x, long y) {
        long[] w = words;
        int i = len;
        w[i] = WIDE | (long) kind << 4;
        w[i + 1] = (long) t << 32 | (c & 0xFFFFFFFFL);
        w[i + 2] = (long) small << 32 | (size & 0xFFFFFFFFL);
        w[i + 3] = clk;
        w[i + 4] = x;
        w[i + 5] = y;
        len = i + MAX_WORDS;
    }

    void access(int t, int c, long clk, int memType, int size, boolean store, long address, boolean sync) {
        n++;
        int k = sync ? (store ? SYNC_STORE : SYNC_LOAD) : (store ? STORE : LOAD);
        lastKind = k;
        long h = header(k, memType, size, t, c);
        if (h < 0) {
            wide(k, memType, size, t, c, clocks ? clk : 0, address, 0);
            return;
        }
        if (clocks) {
            append(3, h, clk, address, 0);
        } else {
            append(2, h, address, 0, 0);
        }
    }

    /** Appends a record of {@code count} (1 to 4) words: its header h, then a, b, c as far as count goes. */
    private void append(int count, long h, long a, long b, long c) {
        long[] w = words;
        int i = len;
        w[i] = h;
        if (count > 1) {
            w[i + 1] = a;
        }
        if (count > 2) {
            w[i + 2] = b;
        }
        if (count > 3) {
            w[i + 3] = c;
        }
        len = i + count;
    }

    void fetch(int t, int c, long clk, long address, int size) {
        n++;
        lastKind = FETCH;
        long h = header(FETCH, 0, size, t, c);
        if (h < 0) {
            wide(FETCH, 0, size, t, c, clk, address, 0);
            return;
        }
        append(3, h, clk, address, 0);
    }

    void branch(int t, int c, long clk, int k, long source, long target) {
        n++;
        lastKind = BRANCH;
        long h = header(BRANCH, k, 0, t, c);
        if (h < 0) {
            wide(BRANCH, k, 0, t, c, clk, source, target);
            return;
        }
        append(4, h, clk, source, target);
    }

    void call(int t, int c, long clk, CallEvent e) {
        n++;
        lastKind = CALL;
        int k = calls++;
        callType[k] = e.type;
        callStart[k] = e.startTime;
        callEnd[k] = e.endTime;
        callArgs[4 * k] = e.arg1;
        callArgs[4 * k + 1] = e.arg2;
        callArgs[4 * k + 2] = e.arg3;
        callArgs[4 * k + 3] = e.arg4;
        callWait[k] = e.waitClocks;
        long h = header(CALL, 0, k, t, c);
        if (h < 0) {
            wide(CALL, 0, k, t, c, clk, 0, 0);
            return;
        }
        append(2, h, clk, 0, 0);
    }

    /** Receives a batch's records, in order ({@link #read}). */
    interface Reader {
        void access(int t, int cpu, long clock, int memType, int size, boolean store, long address, boolean sync);

        void fetch(int t, int cpu, long clock, long address, int size);

        void branch(int t, int cpu, long clock, int kind, long source, long target);

        /** A call record: {@link #callEvent}({@code index}) gives its fields. */
        void call(RecordBatch b, int t, int cpu, long clock, int index);

        /** A phase-begin, phase-end or end record; {@code objects[index]} is its phase, the next slot its times. */
        void control(RecordBatch b, int kind, int index);
    }

    /** Hands every record to {@code r}, in the order appended. */
    void read(Reader r) {
        long[] w = words;
        int c = clocks ? 1 : 0;
        for (int i = 0, e = len; i < e;) {
            long h = w[i];
            int k = kind(h);
            if (k <= SYNC_STORE) {
                r.access(thread(h), cpu(h), w[i + 1] & -c, small(h), size(h), (k & 1) != 0, w[i + 1 + c],
                        k >= SYNC_LOAD);
                i += 2 + c;
            } else if (k == WIDE) {
                long tc = w[i + 1];
                long ss = w[i + 2];
                record(r, small(h), (int) (tc >>> 32), (int) tc, (int) (ss >>> 32), (int) ss, w[i + 3], w[i + 4],
                        w[i + 5]);
                i += MAX_WORDS;
            } else if (k == FETCH) {
                r.fetch(thread(h), cpu(h), w[i + 1], w[i + 2], size(h));
                i += 3;
            } else if (k == BRANCH) {
                r.branch(thread(h), cpu(h), w[i + 1], small(h), w[i + 2], w[i + 3]);
                i += 4;
            } else if (k == CALL) {
                r.call(this, thread(h), cpu(h), w[i + 1], size(h));
                i += 2;
            } else {
                r.control(this, k, size(h));
                i += 1;
            }
        }
    }

    private void record(Reader r, int k, int t, int c, int small, int size, long clk, long x, long y) {
        switch (k) {
            case LOAD: case STORE: case SYNC_LOAD: case SYNC_STORE:
                r.access(t, c, clk, small, size, (k & 1) != 0, x, k >= SYNC_LOAD);
                break;
            case FETCH: r.fetch(t, c, clk, x, size); break;
            case BRANCH: r.branch(t, c, clk, small, x, y); break;
            case CALL: r.call(this, t, c, clk, size); break;
            default: r.control(this, k, size); break;
        }
    }

    /** Copies call {@code k} into {@code e}. */
    void callEvent(int k, CallEvent e) {
        e.type = callType[k];
        e.startTime = callStart[k];
        e.endTime = callEnd[k];
        e.arg1 = callArgs[4 * k];
        e.arg2 = callArgs[4 * k + 1];
        e.arg3 = callArgs[4 * k + 2];
        e.arg4 = callArgs[4 * k + 3];
        e.waitClocks = callWait[k];
    }

    /** A phase, end-of-phase or end record with its (copied) phase and times. */
    void control(int k, Phase phase, PhaseTimes times) {
        n++;
        lastKind = k;
        if (nObjects + 2 > objects.length) {
            objects = java.util.Arrays.copyOf(objects, objects.length * 2);
        }
        long h = header(k, 0, nObjects, 0, 0);
        if (h < 0) {
            wide(k, 0, nObjects, 0, 0, 0, 0, 0);
        } else {
            append(1, h, 0, 0, 0);
        }
        objects[nObjects++] = phase;
        objects[nObjects++] = times;
    }
}
