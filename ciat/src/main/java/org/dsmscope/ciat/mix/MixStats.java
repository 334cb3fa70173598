package org.dsmscope.ciat.mix;

import org.dsmscope.trace.MemType;

/**
 * Instruction mix, instruction stream and procedure-call counters of one phase (seed 000 §4.1&ndash;4.3, seed 001
 * §5.1), per thread where it matters.
 *
 * <p>Access classes by size and register type: the seed's byte, halfword, word, float, double-float (loads) and
 * zero-byte, three-byte (stores), plus SPEC §3's double-word fixed (8-byte fixed-point: Java {@code long}) and the
 * extension classes vector (register type 2 or 16/32/64 bytes) and other (any size or register combination the
 * seed has no class for, e.g. wide records of odd sizes). References are 4-byte fixed-point loads and stores in
 * the trace format (SPEC §3) and are counted as word: the type field carries no reference flag.
 */
public final class MixStats implements java.io.Serializable {
    private static final long serialVersionUID = 1L;
    /** Class names, in class-number order. */
    public static final String[] CLASS_NAMES = {"zero-byte", "byte", "halfword", "three-byte", "word",
        "double-word-fixed", "float", "double-float", "vector", "other"};
    /** Number of classes. */
    public static final int CLASSES = CLASS_NAMES.length;
    /** String-length histogram size: lengths 1..63 exactly, index 64 for 64 or more. */
    public static final int STRING_MAX = 64;

    /** Threads. */
    public final int threads;
    /** Loads per thread and class: {@code [thread * CLASSES + class]}. */
    public final long[] loads;
    /** Stores per thread and class. */
    public final long[] stores;
    /** Load strings by length (index = length, 64 = 64 or more). */
    public final long[] loadStrings = new long[STRING_MAX + 1];
    /** Store strings by length. */
    public final long[] storeStrings = new long[STRING_MAX + 1];
    /** Bytes loaded and stored. */
    public long bytesAccessed;
    /** Instructions fetched (reconstructed from branch records, or fetch records), per thread. */
    public final long[] fetched;
    /** Taken branches. */
    public long takenBranches;
    /** Procedure calls (procedure-call branch records). */
    public long procedureCalls;
    /** Calls to instrumented procedures (a procedure call followed by a procedure start at its target). */
    public long instrumentedCalls;
    /** Per call type: count. */
    public final long[] callCount = new long[256];
    /** Per call type: time spent in the call, µs. */
    public final long[] callTime = new long[256];
    /** Per call type: bytes (the amount field, argument 2, of file reads and writes). */
    public final long[] callBytes = new long[256];
    /** Per call type: pseudo-clock instructions waited at the call. */
    public final long[] callWait = new long[256];

    /** Zeroed counters for {@code threads} threads. */
    public MixStats(int threads) {
        this.threads = threads;
        loads = new long[threads * CLASSES];
        stores = new long[threads * CLASSES];
        fetched = new long[threads];
    }

    /** The class of an access: record type field {@code memType} and {@code size} in bytes. */
    public static int classify(int memType, int size) {
        int reg = MemType.reg(memType);
        if (size == 0) {
            return 0;
        }
        if (reg == MemType.VECTOR || size >= 16) {
            return 8;
        }
        if (reg == MemType.FLOAT) {
            return size == 4 ? 6 : size == 8 ? 7 : 9;
        }
        if (reg != MemType.FIXED) {
            return 9;
        }
        switch (size) {
            case 1: return 1;
            case 2: return 2;
            case 3: return 3;
            case 4: return 4;
            case 8: return 5;
            default: return 9;
        }
    }

    /** Loads of a class, all threads. */
    public long loads(int cls) {
        long n = 0;
        for (int t = 0; t < threads; t++) {
            n += loads[t * CLASSES + cls];
        }
        return n;
    }

    /** Stores of a class, all threads. */
    public long stores(int cls) {
        long n = 0;
        for (int t = 0; t < threads; t++) {
            n += stores[t * CLASSES + cls];
        }
        return n;
    }

    /** All loads of a thread ({@code -1}: all threads). */
    public long totalLoads(int thread) {
        return sum(loads, thread);
    }

    /** All stores of a thread ({@code -1}: all threads). */
    public long totalStores(int thread) {
        return sum(stores, thread);
    }

    /** Fetched instructions, all threads. */
    public long totalFetched() {
        long n = 0;
        for (long f : fetched) {
            n += f;
        }
        return n;
    }

    private long sum(long[] a, int thread) {
        long n = 0;
        int from = thread < 0 ? 0 : thread * CLASSES;
        int to = thread < 0 ? a.length : from + CLASSES;
        for (int i = from; i < to; i++) {
            n += a[i];
        }
        return n;
    }

    /** Adds another phase's counters. */
    public void add(MixStats o) {
        addAll(loads, o.loads);
        addAll(stores, o.stores);
        addAll(loadStrings, o.loadStrings);
        addAll(storeStrings, o.storeStrings);
        addAll(fetched, o.fetched);
        addAll(callCount, o.callCount);
        addAll(callTime, o.callTime);
        addAll(callBytes, o.callBytes);
        addAll(callWait, o.callWait);
        bytesAccessed += o.bytesAccessed;
        takenBranches += o.takenBranches;
        procedureCalls += o.procedureCalls;
        instrumentedCalls += o.instrumentedCalls;
    }

    private static void addAll(long[] a, long[] b) {
        for (int i = 0; i < a.length; i++) {
            a[i] += b[i];
        }
    }
}
