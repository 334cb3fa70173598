package org.dsmscope.trace;

/**
 * The one-word records of a routed partitioned replay's streams (replay/README.md "Partitioned replay"; trace
 * README "Routed streams"), beside the SMAIT records they carry. Their first field's top hex digit is 3, which no
 * SMAIT or extension record and no header has; only readers made with {@link TraceReader.Options#routedGaps}
 * accept them:
 *
 * <pre>
 *   30cccccc bbbbbbbb   gap: cccccc (1..2^24 - 1) data accesses the partition does not get, bbbbbbbb bytes in all
 *                       (all of one size where the replay's markers may stop or resume all threads); read as a
 *                       {@link CallType#ROUTED_GAP} call record: arg1 the count, arg2 the bytes
 *   31hhhhhh llllllll   position: the next record (or the end) is at byte offset hhhhhh &lt;&lt; 32 | llllllll of
 *                       the trace file (taken in, as {@link CallType#ROUTED_AT}, not returned)
 *   32nnnnnn 00000000   run: the next nnnnnn words are memory, branch, procedure or fetch records that the router's
 *                       reader checked; a reader of an in-process stream ({@link WordChannel}) returns them without
 *                       checking them again, a reader of bytes checks them as any record
 * </pre>
 *
 * A gap whose count or bytes do not fit is written as the six-word {@link CallType#ROUTED_GAP} call record, a
 * position past 2^56 as the six-word {@link CallType#ROUTED_AT} one; readers take both forms.
 */
public final class RoutedWords {
    /** First field of a one-word gap, count in the low 24 bits. */
    public static final int TAG_GAP = 0x30000000;
    /** First field of a one-word position, offset bits 55..32 in the low 24 bits. */
    public static final int TAG_AT = 0x31000000;
    /** First field of a run word, the run's length in the low 24 bits. */
    public static final int TAG_RUN = 0x32000000;
    /** Largest count, run length or offset high part a one-word record holds. */
    public static final int MAX_FIELD = 0xFFFFFF;

    private RoutedWords() {
    }

    /** The one-word gap of {@code count} accesses of {@code bytes} bytes, or -1 if it does not fit one word. */
    public static long gap(long count, long bytes) {
        if (count < 1 || count > MAX_FIELD || bytes < 0 || bytes > 0xFFFFFFFFL) {
            return -1;
        }
        return (long) (TAG_GAP | (int) count) << 32 | bytes;
    }

    /** The one-word position of trace-file byte offset {@code offset}, or -1 if it does not fit one word. */
    public static long at(long offset) {
        if (offset < 0 || offset >>> 32 > MAX_FIELD) {
            return -1;
        }
        return (long) (TAG_AT | (int) (offset >>> 32)) << 32 | (offset & 0xFFFFFFFFL);
    }

    /** The run word of {@code n} (1..{@link #MAX_FIELD}) checked words. */
    public static long run(int n) {
        if (n < 1 || n > MAX_FIELD) {
            throw new IllegalArgumentException("run of " + n + " words");
        }
        return (long) (TAG_RUN | n) << 32;
    }
}
