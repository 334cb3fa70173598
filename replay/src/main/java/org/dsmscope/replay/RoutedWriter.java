package org.dsmscope.replay;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.WritableByteChannel;
import org.dsmscope.trace.CallType;
import org.dsmscope.trace.RoutedWords;
import org.dsmscope.trace.SmaitFormat;
import org.dsmscope.trace.TraceReader;
import org.dsmscope.trace.TraceWriter;

/**
 * One partition's routed stream of one thread trace or chunk (SPEC §4 "Partitioning", replay/README.md "Partitioned
 * replay", trace/README.md "Routed streams"), as {@link RouteSplitter} writes it: SMAIT words (the extended header
 * unless the stream continues a chunk before, address-high records where the high word changes, the records the
 * partition gets as they were read, six-word call records) and the one-word gap, position and run records of
 * {@link RoutedWords}. Words go into a {@code long[]} block; a full block, or the block at a hand-off, goes to a
 * {@link Sink}: in process a {@link RoutedPipe}, which takes the block itself (no copy, no bytes) and gives back a
 * drained one, so that nothing is allocated per record or per block; a stream that leaves the process (a Spark map
 * task's) goes out as bytes, big-endian ({@link #bytes}). Run records are written only in process, where the
 * partition's reader trusts them; a reader of bytes checks every word as in a trace file. Not thread-safe.
 */
final class RoutedWriter {
    /** Where the blocks of a routed stream go. */
    interface Sink {
        /** Takes the first {@code n} words of {@code block}; returns the array to fill next (the same, or another). */
        long[] block(long[] block, int n) throws IOException;

        /** Makes what was taken visible to the reader (a stream of bytes flushes its writer). */
        default void flush() throws IOException {
        }

        /** The stream has ended. */
        void end() throws IOException;
    }

    private final Sink sink;
    private final String name;
    /** Write run records (the reader is in process and trusts them). */
    private final boolean runs;
    private long[] buf;
    private int n;
    /** The address-high word in force for the reader, in place (bits 63..32); -1: unknown (a continuation). */
    private long high;

    /**
     * A stream of {@code name}'s records into {@code sink} in blocks of {@code words} words; {@code runs}: with run
     * records; {@code continuation}: it continues the stream of the chunk before (no header, high word unknown).
     */
    RoutedWriter(Sink sink, String name, int words, boolean runs, boolean continuation) {
        this.sink = sink;
        this.name = name;
        this.runs = runs;
        this.buf = new long[Math.max(SmaitFormat.CALL_PARTS, words)];
        if (continuation) {
            high = -1;
        } else {
            put((long) SmaitFormat.HEADER_MAGIC << 32 | SmaitFormat.headerWord(SmaitFormat.FLAG_ADDR64));
        }
    }

    /** A sink writing the stream to {@code out} as bytes (big-endian SMAIT words) through a writer of {@code bufferBytes}. */
    static Sink bytes(WritableByteChannel out, String name, int bufferBytes) throws IOException {
        TraceWriter w = new TraceWriter(out, name, TraceWriter.Options.classic().bufferBytes(bufferBytes));
        return new Sink() {
            @Override
            public long[] block(long[] block, int n) {
                w.raw(block, 0, n);
                return block;
            }

            @Override
            public void flush() {
                w.flush();
            }

            @Override
            public void end() throws IOException {
                w.close();
            }
        };
    }

    private void put(long word) {
        if (n == buf.length) {
            pass(0);
        }
        buf[n++] = word;
    }

    /** {@link #pass}: then flush the sink. */
    private static final int FLUSH = 1;
    /** {@link #pass}: then end the stream. */
    private static final int END = 2;

    /** Hands the block to the sink (if it holds words), then {@link #FLUSH}es or {@link #END}s it, or not (0). */
    private void pass(int then) {
        try {
            if (n > 0) {
                buf = sink.block(buf, n);
                n = 0;
            }
            if (then == FLUSH) {
                sink.flush();
            } else if (then == END) {
                sink.end();
            }
        } catch (IOException e) {
            throw new UncheckedIOException(name + ": cannot route: " + e.getMessage(), e);
        }
    }

    /** An address-high record if the reader's high word is not {@code h} (bits 63..32 in place). */
    private void high(long h) {
        if (h != high) {
            put((long) SmaitFormat.TAG_ADDR_HI << 32 | h >>> 32);
            high = h;
        }
    }

    /** A six-word call record of a routed stream's own (no times, argument 4 zero). */
    private void call(int type, long a1, long a2, long a3) {
        int[] f = fields;
        f[0] = 0;
        f[1] = 0;
        f[2] = (int) a1;
        f[3] = (int) a2;
        f[4] = (int) a3;
        f[5] = 0;
        call(type, f);
    }

    /** A six-word call record. */
    private void call(int type, int[] f) {
        for (int i = 0; i < SmaitFormat.CALL_PARTS; i++) {
            put((long) SmaitFormat.callTag(type, i) << 32 | (f[i] & 0xFFFFFFFFL));
        }
    }

    private final int[] fields = new int[SmaitFormat.CALL_PARTS];

    /** The current record of {@code r}: a call record as six words, any other as its word. */
    void record(TraceReader r) {
        if (r.kind() == org.dsmscope.trace.RecordKind.CALL) {
            int[] f = fields;
            f[0] = (int) r.startTime();
            f[1] = (int) r.endTime();
            for (int i = 1; i <= 4; i++) {
                f[1 + i] = (int) r.arg(i);
            }
            call(r.callType(), f);
        } else {
            high(r.addressHigh());
            put(r.word());
        }
    }

    /**
     * {@code k} checked memory, branch, procedure or fetch words of {@code src} from {@code off} (as {@link
     * TraceReader#nextRun} gives them), addresses' high word {@code h}: one run record before them in process.
     */
    void words(long[] src, int off, int k, long h) {
        if (k <= 0) {
            return;
        }
        high(h);
        for (int done = 0; done < k;) {
            int m = Math.min(k - done, RoutedWords.MAX_FIELD);
            if (runs) {
                put(RoutedWords.run(m));
            }
            for (int i = off + done, end = i + m; i < end;) {
                if (n == buf.length) {
                    pass(0);
                }
                int c = Math.min(end - i, buf.length - n);
                System.arraycopy(src, i, buf, n, c);
                n += c;
                i += c;
            }
            done += m;
        }
    }

    /**
     * A gap of {@code count} accesses of one size, {@code bytes} bytes in all: one word, or a six-word call record if
     * it does not fit.
     */
    void gap(long count, long bytes) {
        long w = RoutedWords.gap(count, bytes);
        if (w >= 0) {
            put(w);
        } else {
            if (count >>> 32 != 0) {
                throw new IllegalStateException(name + ": a gap of " + count + " accesses");
            }
            call(CallType.ROUTED_GAP, count, bytes, bytes >>> 32);
        }
    }

    /** A position: the next record (or the end) is at byte offset {@code offset} of the trace file. */
    void at(long offset) {
        long w = RoutedWords.at(offset);
        if (w >= 0) {
            put(w);
        } else {
            call(CallType.ROUTED_AT, offset, offset >>> 32, 0);
        }
    }

    /** Hands everything written so far to the reader. */
    void flush() {
        pass(FLUSH);
    }

    /** Hands the rest over and ends the stream. */
    void close() {
        pass(END);
    }
}
