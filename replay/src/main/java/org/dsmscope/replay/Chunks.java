package org.dsmscope.replay;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.Arrays;
import org.dsmscope.trace.TraceReader;

/**
 * Where one thread trace is cut into chunks that routers read and route independently (SPEC §4 "Partitioning",
 * replay/README.md "Partitioned replay"): the prescan, which reads every record anyway, notes a {@link
 * TraceReader.Mark} at the first record boundary past every {@link #bytes()} bytes of an uncompressed file (its
 * byte offset, records before it and the address-high word in force), so that chunk i is read from its mark up to
 * the next chunk's, each byte of the file by one reader; past {@value #MAX} chunks every second mark is dropped
 * (chunks twice as long). Compressed files (one zstd or LZ4 frame, which cannot be
 * entered in the middle) have no marks and are routed whole. Serializable: it travels in {@link Replay.Plan}.
 */
final class Chunks implements java.io.Serializable {
    private static final long serialVersionUID = 1L;
    /**
     * System property: bytes of trace per chunk at least (default {@value #DEFAULT_BYTES}; tests make it tiny,
     * a chunk of a few records).
     */
    static final String BYTES_PROPERTY = "dsmscope.chunkBytes";
    /** Default chunk size: 16 MiB of trace, 2 M accesses; a routed chunk per partition then fits its pipe. */
    static final long DEFAULT_BYTES = 16L << 20;

    /** Chunks of a file at most (a cluster's shuffle keys number a thread's chunks in 12 bits). */
    static final int MAX = 4094;

    private final TraceReader.Mark[] starts;
    /** The file's size when it was scanned: where the last chunk ends. */
    private final long end;

    private Chunks(TraceReader.Mark[] starts, long end) {
        this.starts = starts;
        this.end = end;
    }

    /** Bytes per chunk at least ({@link #BYTES_PROPERTY}, at least 8; any other value is refused). */
    static long bytes() {
        return org.dsmscope.trace.SystemProperties.longValue(BYTES_PROPERTY, DEFAULT_BYTES, 8, Long.MAX_VALUE);
    }

    /** The number of chunks (at least 1). */
    int count() {
        return starts.length;
    }

    /** Byte offset where chunk i starts. */
    long from(int i) {
        return starts[i].offset();
    }

    /** Byte offset where chunk i ends (the next chunk's start, or the file's end). */
    long to(int i) {
        return i + 1 < starts.length ? starts[i + 1].offset() : end;
    }

    /** Bytes of the chunks opened so far (tests check that routers read each byte once). */
    static final java.util.concurrent.atomic.AtomicLong BYTES_OPENED = new java.util.concurrent.atomic.AtomicLong();

    /**
     * A reader of chunk i of {@code file}, with replay options {@code o} (counted as a file opened): with {@link
     * ReplayOptions#skipBadRecords} it skips the bad records of its range, as the whole file's reader does there.
     */
    TraceReader open(Path file, ReplayOptions o, int i) {
        Prescan.OPENED.incrementAndGet();
        BYTES_OPENED.addAndGet(to(i) - from(i));
        try {
            return TraceReader.openAt(file, TraceReader.Options.defaults().skipBadRecords(o.skipBadRecords)
                    .order(o.byteOrder), starts[i], to(i));
        } catch (IOException e) {
            throw new UncheckedIOException(file + ": cannot read: " + e.getMessage(), e);
        }
    }

    /**
     * The marks of one file as its prescan reads it ({@link #note} after each record or run), or none for a
     * compressed file.
     */
    static final class Builder {
        private long every;
        private TraceReader.Mark[] marks = new TraceReader.Mark[4];
        private int n;
        /** The position past which the next mark is noted. */
        long next;

        /** Marks for reader {@code r}, just opened, every {@code every} bytes. */
        Builder(TraceReader r, long every) {
            this.every = every;
            marks[n++] = r.mark();
            next = r.position() + every;
        }

        /** Notes a mark where {@code r} stands if it has passed {@link #next}. */
        void note(TraceReader r) {
            long at = r.position();
            if (at >= next) {
                if (n == MAX) {
                    // too many: every second mark goes, the chunks are twice as long
                    int k = 0;
                    for (int i = 0; i < n; i += 2) {
                        marks[k++] = marks[i];
                    }
                    n = k;
                    every *= 2;
                }
                if (n == marks.length) {
                    marks = Arrays.copyOf(marks, 2 * n);
                }
                marks[n++] = r.mark();
                next = at + every;
            }
        }

        /** The chunks of a file of {@code records} records and {@code size} bytes: marks with records after them. */
        Chunks build(long records, long size) {
            int k = n;
            while (k > 1 && marks[k - 1].records() >= records) {
                k--;
            }
            return new Chunks(Arrays.copyOf(marks, k), size);
        }
    }
}
