package org.dsmscope.replay;

import org.dsmscope.trace.MemType;
import org.dsmscope.trace.RecordKind;
import org.dsmscope.trace.TraceReader;

/**
 * What the prescan learns of one trace (a thread, or a process with {@code -i}) for a routed run ({@link
 * Replay#runRouted}, replay/README.md "Partitioned replay"): whether it holds branch, procedure or fetch records
 * ({@link #stream}), whose instruction stream (clocks, program counter, fetches) every partition needs: the router
 * then gives every partition every record of the trace; and whether it has a run of loads that a {@link
 * SpinDetector} could take for a spin ({@link #spins}), with the locations of such runs (the "watch set" of {@link
 * SpinRoutes}). The second is a superset of the detector's rule on the thread's own
 * records: a spin is a run of n &ge; ({@value SpinDetector#MIN_REREADS} + 1)&middot;k loads of k &le; {@value
 * SpinDetector#MAX_LOCATIONS} locations (address and size) with no store or call between, and the replay's waits
 * and phase ends only cut runs shorter, so a thread none of whose windows of loads between stores and calls with
 * d &le; 4 distinct locations is 5&middot;d loads long can spin in no interleaving, and a loop that can is inside
 * such a window, whose d locations are then its own. Per load: the five most recent distinct locations and where
 * each was last loaded, so the longest window with at most d distinct locations ending at this load starts after
 * the (d + 1)-th most recent one's last load; the largest d whose window is long enough gives the locations to
 * watch (a superset of every smaller d's). Branch, procedure and fetch records are not part of a run (the detector
 * sees none of them). Nothing is allocated per record.
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
    /** The locations last added to {@link #watch} (a spin adds the same ones on every load). */
    private final long[] lastAddr = new long[SpinDetector.MAX_LOCATIONS];
    private final int[] lastBytes = new int[SpinDetector.MAX_LOCATIONS];
    private int lastN;
    /** Where the locations of possible spins go (8-byte blocks, {@link SpinRoutes#addLocation}). */
    private final SpinRoutes.Builder watch;
    /** False once the thread was found not routable. */
    boolean routable = true;
    /** True once a branch, procedure or fetch record was found (the detector sees none of them: not part of a run). */
    boolean stream;
    /** True once a run of loads that could be a spin was found. */
    boolean spins;

    /** A check whose possible spins' locations go to {@code watch}. */
    RouteCheck(SpinRoutes.Builder watch) {
        this.watch = watch;
    }

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
        int found = 0;
        for (int d = 1, top = Math.min(m, KEEP - 1); d <= top; d++) {
            long start = d < m ? at[d] + 1 : runStart;
            if (i - start + 1 >= LOOP * d) {
                found = d;
            }
        }
        if (found > 0) {
            spins = true;
            watch(found);
        }
    }

    /** The {@code d} most recent distinct locations are those of a possible spin: into {@link #watch}. */
    private void watch(int d) {
        if (d <= lastN) {
            int same = 0;
            for (int i = 0; i < d; i++) {
                for (int k = 0; k < lastN; k++) {
                    if (lastAddr[k] == addr[i] && lastBytes[k] == bytes[i]) {
                        same++;
                        break;
                    }
                }
            }
            if (same == d) {
                return;
            }
        }
        for (int i = 0; i < d; i++) {
            lastAddr[i] = addr[i];
            lastBytes[i] = bytes[i];
            watch.addLocation(addr[i], bytes[i]);
        }
        lastN = d;
    }
}
