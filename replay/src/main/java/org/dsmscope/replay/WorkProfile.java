package org.dsmscope.replay;

/**
 * How a trace set's records spread over threads and addresses, counted by the prescan for a partitioned run
 * (SPEC §4 "per-address analyses run in parallel partitions"): the data accesses of every thread, those that
 * start in each of {@link #SLOTS} page slots (4 KiB page number mod {@value #SLOTS}), and the other records.
 * An analysis that splits its per-thread and per-address state over partitions uses it to give each partition a
 * like share of the work ({@link ReplayContext#workProfile}); every partition sees the same profile, so they all
 * derive the same split. The counts are estimates, made at almost no cost to the prescan, which skips runs of
 * data-access, branch and fetch records without decoding them: of those runs every {@value #STRIDE}th record of a
 * thread is looked at and counts {@value #STRIDE} times (a thread whose runs hold only data accesses is counted to
 * within {@value #STRIDE}); records outside runs count once. Read-only once made.
 */
public final class WorkProfile implements java.io.Serializable {
    private static final long serialVersionUID = 1L;
    /** Number of page slots. */
    public static final int SLOTS = 1024;
    /** One record in this many of the prescan's runs is looked at. */
    public static final int STRIDE = 8;

    private final long[] threadAccesses;
    private final long[] slotAccesses = new long[SLOTS];
    private long otherRecords;
    /** Records of the current thread's runs to pass over before the next one looked at. */
    private int skip;

    WorkProfile(int threads) {
        threadAccesses = new long[threads];
    }

    /** A profile of the given counts (tests and callers with counts of their own). */
    public static WorkProfile of(long[] threadAccesses, long[] slotAccesses, long otherRecords) {
        if (slotAccesses.length != SLOTS) {
            throw new IllegalArgumentException("slot counts: " + slotAccesses.length + ", not " + SLOTS);
        }
        WorkProfile p = new WorkProfile(threadAccesses.length);
        System.arraycopy(threadAccesses, 0, p.threadAccesses, 0, threadAccesses.length);
        System.arraycopy(slotAccesses, 0, p.slotAccesses, 0, SLOTS);
        p.otherRecords = otherRecords;
        return p;
    }

    /** The slot of the page holding {@code address}. */
    public static int slotOf(long address) {
        return (int) (address >>> 12) & (SLOTS - 1);
    }

    /** Number of threads (trace files). */
    public int threads() {
        return threadAccesses.length;
    }

    /** Data accesses of thread {@code t} (estimated). */
    public long threadAccesses(int t) {
        return threadAccesses[t];
    }

    /** Data accesses whose first byte lies on a page of slot {@code s} (estimated). */
    public long slotAccesses(int s) {
        return slotAccesses[s];
    }

    /** Records other than data accesses: calls, branch, procedure and fetch records (estimated). */
    public long otherRecords() {
        return otherRecords;
    }

    /** Counts {@code n} raw words of thread {@code t} ({@link org.dsmscope.trace.TraceReader#nextRun}). */
    void countRun(int t, long[] words, int from, int n) {
        long[] slots = slotAccesses;
        int end = from + n;
        int i = from + skip;
        long data = 0;
        for (; i < end; i += STRIDE) {
            long w = words[i];
            if ((w >>> 56) == 0) {
                // a data access (top byte 0: TraceReader.wordKind); the low 32 bits hold the address's low half,
                // bits 12..21 the page slot
                slots[(int) (w >>> 12) & (SLOTS - 1)] += STRIDE;
                data += STRIDE;
            } else {
                otherRecords += STRIDE;
            }
        }
        threadAccesses[t] += data;
        skip = i - end;
    }

    /** Counts one record read by {@link org.dsmscope.trace.TraceReader#next}. */
    void count(int t, int kind, long address) {
        if (kind == org.dsmscope.trace.RecordKind.MEMORY) {
            slotAccesses[slotOf(address)]++;
            threadAccesses[t]++;
        } else {
            otherRecords++;
        }
    }

    /** Adds the counts of {@code other} (of other threads' traces) to these. */
    void add(WorkProfile other) {
        for (int t = 0; t < threadAccesses.length; t++) {
            threadAccesses[t] += other.threadAccesses[t];
        }
        for (int s = 0; s < SLOTS; s++) {
            slotAccesses[s] += other.slotAccesses[s];
        }
        otherRecords += other.otherRecords;
    }

    /** Starts the counts of the next thread. */
    void nextThread() {
        skip = 0;
    }
}
