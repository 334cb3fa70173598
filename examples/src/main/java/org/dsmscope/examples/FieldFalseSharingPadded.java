package org.dsmscope.examples;

/**
 * The fix of {@link FieldFalseSharing}: the same tally with seven longs of padding between {@code hits} and
 * {@code misses}, so the two threads' fields are 64 bytes apart, never in one 64-byte line.
 */
public final class FieldFalseSharingPadded {
    /** The padded tally: {@code misses} 64 bytes after {@code hits}. */
    static final class PaddedCounter {
        long hits;
        long p1;
        long p2;
        long p3;
        long p4;
        long p5;
        long p6;
        long p7;
        long misses;
    }

    private FieldFalseSharingPadded() {
    }

    /** Runs {@code FieldFalseSharingPadded [THREADS [ITEMS]]}. */
    public static void main(String[] args) {
        Cli.main("FieldFalseSharingPadded", args, FieldFalseSharing.DEFAULT_SIZE, FieldFalseSharingPadded::run);
    }

    /** The fix: hits and misses a line apart. */
    public static Result run(int threads, int n) {
        PaddedCounter c = new PaddedCounter();
        return FieldFalseSharing.count(threads, n, () -> c.hits++, () -> c.misses++, () -> c.hits, () -> c.misses);
    }
}
