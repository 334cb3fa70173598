package org.dsmscope.agent.core;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.ReadableByteChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayDeque;
import org.dsmscope.trace.SmaitFormat;

/**
 * One thread's record stream for on-the-fly analysis ({@link LiveRun}): the thread's {@code TraceWriter} writes into
 * it (the producer side, an {@link OutputStream}) and the analysis reads it through {@link #channel()}, in order.
 * Every write is handed over as one chunk; while the chunks queued in memory by all threads stay within the
 * run's budget they wait in memory, beyond it the producer compresses the chunk (zstd) into a private spill
 * segment file and queues a reference to it. A producer never waits for the analysis. Spill segments are deleted
 * once their last chunk is read.
 */
final class LiveStream extends OutputStream {
    /** Bytes per spill segment before a new one is started. */
    private static final long SEGMENT = 64L << 20;

    private final LiveRun run;
    private final int index;
    /** Chunks in order: {@code byte[]} (in memory) or {@link Spilled}. Guarded by this. */
    private final ArrayDeque<Object> queue = new ArrayDeque<>();
    private boolean ended;
    private boolean readerClosed;
    private Segment segment;
    private int segments;
    /** A copy of everything written ({@code -Ddsmscope.spill.keep=true}), or null. */
    private final OutputStream keep;

    LiveStream(LiveRun run, int index, OutputStream keep) {
        this.run = run;
        this.index = index;
        this.keep = keep;
    }

    /** A spill segment file and how many of its chunks are still to be read. */
    private static final class Segment {
        final Path path;
        final FileChannel ch;
        long size;
        int pending;
        boolean sealed;

        Segment(Path path) throws IOException {
            this.path = path;
            this.ch = FileChannel.open(path, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE,
                    StandardOpenOption.READ);
        }
    }

    /** A chunk in a spill segment. */
    private static final class Spilled {
        final Segment seg;
        final long at;
        final int packed;
        final int raw;

        Spilled(Segment seg, long at, int packed, int raw) {
            this.seg = seg;
            this.at = at;
            this.packed = packed;
            this.raw = raw;
        }
    }

    @Override
    public void write(int b) throws IOException {
        write(new byte[] {(byte) b}, 0, 1);
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
        if (len <= 0) {
            return;
        }
        if (keep != null) {
            keep.write(b, off, len);
        }
        if (run.dead()) {
            return;
        }
        byte[] c = java.util.Arrays.copyOfRange(b, off, off + len);
        synchronized (this) {
            if (readerClosed) {
                return;
            }
            if (run.reserve(len)) {
                queue.addLast(c);
            } else {
                queue.addLast(spill(c));
            }
            notifyAll();
        }
    }

    /** Compresses a chunk into the current spill segment (a new one when it is full). Called holding this. */
    private Spilled spill(byte[] c) throws IOException {
        if (segment == null || segment.size >= SEGMENT) {
            seal();
            segment = new Segment(run.spillDir().resolve(index + "." + (segments++) + ".zst"));
        }
        byte[] z = com.github.luben.zstd.Zstd.compress(c, 1);
        Segment s = segment;
        ByteBuffer bb = ByteBuffer.wrap(z);
        long at = s.size;
        while (bb.hasRemaining()) {
            s.ch.write(bb, at + bb.position());
        }
        s.size += z.length;
        s.pending++;
        run.spilled(c.length);
        return new Spilled(s, at, z.length, c.length);
    }

    /** Seals the current segment: deleted as soon as its chunks are read. Called holding this. */
    private void seal() {
        Segment s = segment;
        segment = null;
        if (s != null) {
            s.sealed = true;
            if (s.pending == 0) {
                delete(s);
            }
        }
    }

    private static void delete(Segment s) {
        try {
            s.ch.close();
            Files.deleteIfExists(s.path);
        } catch (IOException e) {
            TraceRuntime.warn("cannot delete " + s.path + ": " + e.getMessage());
        }
    }

    @Override
    public void flush() throws IOException {
        if (keep != null) {
            keep.flush();
        }
    }

    /** The end of the thread's records (the writer closes its stream). */
    @Override
    public void close() throws IOException {
        synchronized (this) {
            if (ended) {
                return;
            }
            ended = true;
            seal();
            notifyAll();
        }
        if (keep != null) {
            keep.close();
        }
    }

    /** Ends the stream of a thread that never started (threads=P larger than the run's thread count). */
    void endUnused() {
        try {
            close();
        } catch (IOException e) {
            // nothing written
        }
    }

    /** The next chunk; null if none is there and {@code block} is false; {@code this} at the end of the stream. */
    private Object take(boolean block) throws IOException {
        Object e;
        synchronized (this) {
            while (queue.isEmpty() && !ended) {
                if (!block) {
                    return null;
                }
                try {
                    wait();
                } catch (InterruptedException x) {
                    Thread.currentThread().interrupt();
                    throw new InterruptedIOException("on-the-fly analysis interrupted");
                }
            }
            e = queue.pollFirst();
            if (e == null) {
                return this;
            }
        }
        if (e instanceof byte[]) {
            run.release(((byte[]) e).length);
            return e;
        }
        Spilled s = (Spilled) e;
        ByteBuffer bb = ByteBuffer.allocate(s.packed);
        while (bb.hasRemaining()) {
            if (s.seg.ch.read(bb, s.at + bb.position()) < 0) {
                throw new IOException(s.seg.path + ": spill segment shorter than written");
            }
        }
        byte[] raw = com.github.luben.zstd.Zstd.decompress(bb.array(), s.raw);
        synchronized (this) {
            if (--s.seg.pending == 0 && s.seg.sealed) {
                delete(s.seg);
            }
        }
        return raw;
    }

    /** The analysis side: reads the chunks in order (see {@code AnalysisSink.analyseLive} for when a read blocks). */
    ReadableByteChannel channel() {
        return new ReadableByteChannel() {
            private byte[] cur;
            private int at;
            private boolean open = true;

            @Override
            public int read(ByteBuffer dst) throws IOException {
                int n = 0;
                while (dst.hasRemaining()) {
                    if (cur != null && at < cur.length) {
                        int k = Math.min(dst.remaining(), cur.length - at);
                        dst.put(cur, at, k);
                        at += k;
                        n += k;
                        continue;
                    }
                    // Block only while the reader cannot decode its next record: a call record is the longest.
                    Object c = take(dst.position() < SmaitFormat.CALL_BYTES);
                    if (c == null) {
                        return n;
                    }
                    if (c == LiveStream.this) {
                        return n > 0 ? n : -1;
                    }
                    cur = (byte[]) c;
                    at = 0;
                }
                return n;
            }

            @Override
            public boolean isOpen() {
                return open;
            }

            @Override
            public void close() {
                open = false;
                readerClosed();
            }
        };
    }

    /** The analysis stopped reading: drop what is queued and what comes. */
    private void readerClosed() {
        synchronized (this) {
            readerClosed = true;
            java.util.Set<Segment> segs = java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());
            for (Object e : queue) {
                if (e instanceof byte[]) {
                    run.release(((byte[]) e).length);
                } else {
                    segs.add(((Spilled) e).seg);
                }
            }
            queue.clear();
            if (segment != null) {
                segs.add(segment);
                segment = null;
            }
            for (Segment s : segs) {
                delete(s);
            }
        }
    }
}
