package org.dsmscope.trace;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.ReadableByteChannel;

/**
 * The routed-stream layer under {@link TraceReader} (replay/README.md "Partitioned replay", trace README "Routed
 * streams"): what a reader made with {@link TraceReader.Options#routedGaps} reads beside the SMAIT records. It
 * decodes the gaps (the one-word form of {@link RoutedWords} and the six-word {@link CallType#ROUTED_GAP} call
 * record) into the current call record's fields, takes in the positions ({@link RoutedWords#TAG_AT} and {@link
 * CallType#ROUTED_AT}) that {@link TraceReader#offset()} answers with, and, in a stream handed over in process
 * ({@link WordChannel}), lets the words of a run record ({@link RoutedWords#TAG_RUN}) skip the reader's check, which
 * the router's reader made already. It also holds the current call record, so that a gap is one. Not thread-safe.
 */
abstract class RoutedStream extends WordStream {
    /** Accept gap, position and run records ({@link TraceReader.Options#routedGaps}). */
    final boolean routedGaps;
    /** Run records are trusted: the stream is a routed one handed over in process. */
    private final boolean trusted;
    /**
     * The trace file's byte offset that the last position record gave for the record after it, or -1; {@link
     * #records()} when it was read.
     */
    long routedAt = -1;
    long routedAtRecords;
    /** Stream word index (byte offset / 8) where the last trusted run ends; 0 before one. */
    private long trustEnd;
    /** The current call record is a one-word gap (its offset is one word before the position, not six). */
    boolean compactCall;
    /** Call record: its type, and its six second fields. */
    int callType;
    final int[] callWords = new int[SmaitFormat.CALL_PARTS];

    RoutedStream(ReadableByteChannel raw, String name, TraceReader.Options o) throws IOException {
        super(raw, name, o);
        this.routedGaps = o.routedGaps;
        this.trusted = false;
    }

    RoutedStream(FileChannel ch, String name, TraceReader.Options o, TraceReader.Mark from, long to)
            throws IOException {
        super(ch, name, o, from, to);
        this.routedGaps = o.routedGaps;
        this.trusted = false;
    }

    RoutedStream(WordChannel in, String name, TraceReader.Options o) {
        super(in, name, o);
        this.routedGaps = o.routedGaps;
        this.trusted = o.routedGaps;
    }

    /**
     * Decodes the one-word routed record at {@link #wi} (first field {@code f1}, top hex digit 3, second {@code f2}):
     * 1 for a gap, now the current call record; 0 for a position or a run, taken in ({@code trustable}: a run's
     * words may skip the check, no address past the end of the 64-bit space possible); -1 if it is no such record.
     */
    final int routedWord(int f1, int f2, boolean trustable) {
        int n = f1 & RoutedWords.MAX_FIELD;
        switch (f1 & 0xFF000000) {
            case RoutedWords.TAG_GAP:
                if (n == 0) {
                    return -1;
                }
                callType = CallType.ROUTED_GAP;
                callWords[0] = 0;
                callWords[1] = 0;
                callWords[2] = n;
                callWords[3] = f2;
                callWords[4] = 0;
                callWords[5] = 0;
                compactCall = true;
                wi++;
                return 1;
            case RoutedWords.TAG_AT:
                wi++;
                nonRecordBytes += SmaitFormat.SIMPLE;
                position((long) n << 32 | (f2 & 0xFFFFFFFFL));
                return 0;
            case RoutedWords.TAG_RUN:
                if (n == 0 || f2 != 0) {
                    return -1;
                }
                wi++;
                nonRecordBytes += SmaitFormat.SIMPLE;
                if (trusted && trustable) {
                    trustEnd = (base >>> 3) + wi + n;
                }
                return 0;
            default:
                return -1;
        }
    }

    /**
     * Takes in the position and run records from word {@code i} = {@link #wi} on, up to the first other word or the
     * end of the chunk (a bad one is left for {@code next()} to report), so that a batch read ({@code nextRun},
     * {@code peekRun}) returns the run after them at once; returns {@link #wi} after them.
     */
    final int takeIn(int i, boolean trustable) {
        while (i < avail) {
            long v = words[i];
            int tag = (int) (v >>> 32) & 0xFF000000;
            if (tag != RoutedWords.TAG_RUN && tag != RoutedWords.TAG_AT || routedWord((int) (v >>> 32), (int) v,
                    trustable) < 0) {
                break;
            }
            i = wi;
        }
        return i;
    }

    /** Takes in a position: the next record (or the end) is at byte offset {@code offset} of the trace file. */
    final void position(long offset) {
        routedAt = offset;
        routedAtRecords = records();
    }

    /**
     * Where the words of a trusted run that holds word {@code i} end ({@link #avail} at most), or -1 if none does:
     * words up to there need no check.
     */
    final int trustedTo(int i) {
        long first = base >>> 3;
        return first + i < trustEnd ? (int) Math.min(avail, trustEnd - first) : -1;
    }

    /**
     * The trace file's offset of the current record (of kind {@code kind}; {@link RecordKind#EOF}: the end) if a
     * position record placed it, else -1.
     */
    final long placed(int kind) {
        return routedAt >= 0 && records() == routedAtRecords + (kind == RecordKind.EOF ? 0 : 1) ? routedAt : -1;
    }

    /** Call record: call type ({@link CallType}). */
    public int callType() {
        return callType;
    }

    /** Call record: start time field (µs, unsigned 32 bits). */
    public long startTime() {
        return callWords[0] & 0xFFFFFFFFL;
    }

    /** Call record: end time field (µs, unsigned 32 bits). */
    public long endTime() {
        return callWords[1] & 0xFFFFFFFFL;
    }

    /** Call record: argument {@code i} (1&ndash;4), unsigned 32 bits. */
    public long arg(int i) {
        return callWords[1 + i] & 0xFFFFFFFFL;
    }
}
