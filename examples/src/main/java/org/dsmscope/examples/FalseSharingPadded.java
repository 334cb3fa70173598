package org.dsmscope.examples;

/**
 * The fix of {@link FalseSharing}: the same per-thread counters, each {@link FalseSharing#PAD} longs (one 64-byte
 * line) from the next, so no two threads' counters share a line.
 */
public final class FalseSharingPadded {
    private FalseSharingPadded() {
    }

    /** Runs {@code FalseSharingPadded [THREADS [INCREMENTS]]}. */
    public static void main(String[] args) {
        Cli.main("FalseSharingPadded", args, FalseSharing.DEFAULT_SIZE, FalseSharingPadded::run);
    }

    /** The fix: counters a line apart. */
    public static Result run(int threads, int n) {
        return FalseSharing.count(threads, n, FalseSharing.PAD);
    }
}
