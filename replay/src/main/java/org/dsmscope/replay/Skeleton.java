package org.dsmscope.replay;

import java.util.Arrays;

/**
 * The synchronization skeleton of one trace (SPEC §4 "Partitioning"): the instruction offsets and times of the
 * call records that bound slices (semop, semctl, ldcw, critical sections) and of the file reads and writes inside
 * slices. Built by {@link Prescan}; drives the {@link SliceScheduler}. Times are µs from the first record.
 */
final class Skeleton implements java.io.Serializable {
    private static final long serialVersionUID = 1L;
    /** Instructions in the whole trace. */
    long instructions;
    /** Slice-bounding calls: instruction offset, start µs, end µs (parallel arrays, {@link #bounds} used). */
    long[] boundAt = new long[16];
    long[] boundStart = new long[16];
    long[] boundEnd = new long[16];
    int bounds;
    /** File I/O calls: instruction offset, bytes, true for a read. */
    long[] ioAt = new long[4];
    long[] ioBytes = new long[4];
    boolean[] ioRead = new boolean[4];
    int ios;
    /** First and last call times (µs, unwrapped, before rebasing), -1 if no calls. */
    long firstTime = -1;
    /**
     * The prescan's finding that this trace cannot be verified complete: no end record promised (classic SMAIT,
     * older files) and its records do not begin with start_trace (whose end_trace the replay checks).
     */
    boolean unverified;
    /** The same for this thread's call trace: no end record promised and no start_trace as its first call. */
    boolean callsUnverified;
    long lastTime = -1;

    void addBound(long at, long start, long end) {
        if (bounds == boundAt.length) {
            boundAt = Arrays.copyOf(boundAt, bounds * 2);
            boundStart = Arrays.copyOf(boundStart, bounds * 2);
            boundEnd = Arrays.copyOf(boundEnd, bounds * 2);
        }
        boundAt[bounds] = at;
        boundStart[bounds] = start;
        boundEnd[bounds] = end;
        bounds++;
    }

    void addIo(long at, long bytes, boolean read) {
        if (ios == ioAt.length) {
            ioAt = Arrays.copyOf(ioAt, ios * 2);
            ioBytes = Arrays.copyOf(ioBytes, ios * 2);
            ioRead = Arrays.copyOf(ioRead, ios * 2);
        }
        ioAt[ios] = at;
        ioBytes[ios] = bytes;
        ioRead[ios] = read;
        ios++;
    }

    void rebase(long t0) {
        for (int i = 0; i < bounds; i++) {
            boundStart[i] -= t0;
            boundEnd[i] -= t0;
        }
        if (firstTime >= 0) {
            firstTime -= t0;
            lastTime -= t0;
        }
    }

    /** True for the call types that bound a slice (SPEC §4: they imply process synchronization). */
    static boolean bounds(int callType) {
        switch (callType) {
            case org.dsmscope.trace.CallType.SEMOP:
            case org.dsmscope.trace.CallType.SEMCTL:
            case org.dsmscope.trace.CallType.LDCW:
            case org.dsmscope.trace.CallType.BEGIN_CRITICAL:
            case org.dsmscope.trace.CallType.END_CRITICAL:
                return true;
            default:
                return false;
        }
    }
}
