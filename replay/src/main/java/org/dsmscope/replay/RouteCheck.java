package org.dsmscope.replay;

import org.dsmscope.trace.MemType;
import org.dsmscope.trace.RecordKind;
import org.dsmscope.trace.TraceReader;

/**
 * Whether one trace (a thread, or a process with {@code -i}) can be routed ({@link Replay#runRouted}, replay/README.md
 * "Partitioned replay"): it holds no run of loads that a {@link SpinDetector} could take for a spin; and, apart
 * ({@link #stream}), whether it holds branch, procedure or fetch records, whose instruction stream (clocks, program
 * counter, fetches) every partition needs: the router then gives every partition every record of the trace. The
 * first is a superset of the detector's rule on the thread's own records: a spin is a run of n &ge; ({@value SpinDetector#MIN_REREADS} +
 * 1)&middot;k loads of k &le; {@value SpinDetector#MAX_LOCATIONS} locations (address and size) with no store or call
 * between, so a thread none of whose windows of loads between stores and calls with d &le; 4 distinct locations
 * is 5&middot;d loads long can spin in no interleaving. Per load: the five most recent distinct locations and
 * where each was last loaded, so the longest window with at most d distinct locations ending at this load starts
 * after the (d + 1)-th most recent one's last load. Nothing is allocated per record.
 */
final class RouteCheck {
    private static final int KEEP = SpinDetector.MAX_LOCATIONS + 1;
    private static final long LOOP = SpinDetector.MIN_REREADS + 1;
    private final long[] addr = new long[KEEP];
    private final int[] bytes = new int[KEEP];
    private final long[] at = new long[KEEP];
    private int m;
    private long loads;
    private long runStart;
    /** False once the thread was found not routable. */
    boolean routable = true;
    /** True once a branch, procedure or fetch record was found (the detector sees none of them: not part of a run). */
    boolean stream;

    /** A run of {@link TraceReader#nextRun} words whose addresses have the high word {@code high}. */
    void run(long[] w, int from, int n, long high) {
        for (int i = from, end = from + n; i < end && routable; i++) {
            long word = w[i];
            if (TraceReader.wordKind(word) != RecordKind.MEMORY) {
                stream = true;
                continue;
            }
            int f1 = (int) (word >>> 32);
            access((f1 & 0xF) == MemType.STORE, MemType.bytes(f1), high | (word & 0xFFFFFFFFL));
        }
    }

    /** A record read one by one, of kind {@code k}, current in {@code r}. */
    void record(int k, TraceReader r) {
        if (k == RecordKind.MEMORY) {
            access(r.isStore(), r.size(), r.address());
        } else if (k == RecordKind.CALL) {
            m = 0;
            runStart = loads;
        } else {
            stream = true;
        }
    }

    private void access(boolean store, int size, long a) {
        if (store) {
            m = 0;
            runStart = loads;
            return;
        }
        if (size <= 0 || !routable) {
            return;
        }
        int j = 0;
        while (j < m && (addr[j] != a || bytes[j] != size)) {
            j++;
        }
        if (j == m) {
            if (m < KEEP) {
                m++;
            }
            j = m - 1;
        }
        for (int i = j; i > 0; i--) {
            addr[i] = addr[i - 1];
            bytes[i] = bytes[i - 1];
            at[i] = at[i - 1];
        }
        long i = loads++;
        addr[0] = a;
        bytes[0] = size;
        at[0] = i;
        if (i - runStart + 1 < LOOP) {
            return; // no window of this run is long enough yet
        }
        for (int d = 1; d < KEEP; d++) {
            long start = d < m ? at[d] + 1 : runStart;
            if (i - start + 1 >= LOOP * d) {
                routable = false;
                return;
            }
        }
    }
}
