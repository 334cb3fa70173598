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
 * it (the producer side, an {@link OutputStream}) and the analysis reads it through {@link #channel(int)}, in order,
 * with one or more readers (a partitioned analysis replays the run once per partition: each reader gets every
 * chunk). Every write is handed over as one chunk; while the chunks queued in memory by all threads stay within the
 * run's budget they wait in memory; beyond it the producer waits for the readers or, when waiting could deadlock
 * ({@link LiveRun#admit}), compresses the chunk ({@link SpillCodec}: zstd, or lz4 with the {@code codec} option)
 * into a private spill segment file and queues a reference to it. A chunk leaves the queue (and gives its bytes
 * back to the budget) when every reader has taken it; a reader that takes a spilled chunk reads and decompresses it
 * itself. Spill segments are deleted once every reader has read their last chunk. The agent's join hints
 * ({@link #hint}) go to the readers only.
 */
final class LiveStream extends OutputStream {
    /** Bytes per spill segment before a new one is started. */
    private static final long SEGMENT = 64L << 20;
    /** A closed reader's position: past every chunk. */
    private static final long CLOSED = Long.MAX_VALUE;

    private final LiveRun run;
    private final int index;
    /**
     * Chunks in order: {@code byte[]} (in memory) or {@link Spilled}; chunk number {@code first + i} at
     * {@code ring[(head + i) & (ring.length - 1)]}, {@code count} of them. Guarded by this.
     */
    private Object[] ring = new Object[64];
    private int head;
    private int count;
    private long first;
    /** Per reader, the number of the next chunk it takes ({@link #CLOSED} once it closed). Guarded by this. */
    private final long[] next;
    /** Per reader, whether it waits in {@link #take} for a chunk (counted by the run). Guarded by this. */
    private final boolean[] waiting;
    /** Readers waiting in {@link #take} now (written holding this). */
    private volatile int awaited;
    private int openReaders;
    private boolean ended;
    private volatile boolean readerClosed;
    private Segment segment;
    private int segments;
    /** The spill's compression ({@code codec} option); its packer (made on the first spill, closed at the end). */
    private final SpillCodec codec;
    private SpillCodec.Packer zc;
    private byte[] zbuf = new byte[0];
    /** A copy of everything written ({@code -Ddsmscope.spill.keep=true}), or null. */
    private final OutputStream keep;

    /** A stream read by {@code readers} &ge; 1 readers. */
    LiveStream(LiveRun run, int index, OutputStream keep, int readers, SpillCodec codec) {
        if (readers < 1) {
            throw new IllegalArgumentException("readers " + readers);
        }
        this.codec = codec;
        this.run = run;
        this.index = index;
        this.keep = keep;
        this.next = new long[readers];
        this.waiting = new boolean[readers];
        this.openReaders = readers;
    }

    /** A spill segment file and how many reads of its chunks are still to come (one per chunk and reader). */
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
        if (run.dead() || readerClosed) {
            return;
        }
        // Waits (outside this stream's lock: readers take chunks under it) while the budget is full and some reader
        // is still at work; spills only when every reader waits for records (LiveRun#admit).
        boolean inMemory = run.admit(len, this);
        synchronized (this) {
            if (readerClosed) {
                if (inMemory) {
                    run.release(len);
                }
                return;
            }
            append(inMemory ? java.util.Arrays.copyOfRange(b, off, off + len) : spill(b, off, len));
            wakeReaders();
        }
    }

    /**
     * Appends an on-the-fly hint record ({@code CallType.LIVE_JOIN}, 48 bytes) after everything written so far: for
     * the readers only, not for the kept copy (which holds what a trace file would). It always stays in memory;
     * the stream keeps {@code record} itself (the caller made it for this call).
     */
    void hint(byte[] record) {
        if (run.dead()) {
            return;
        }
        synchronized (this) {
            if (readerClosed || ended) {
                return;
            }
            run.force(record.length);
            append(record);
            wakeReaders();
        }
    }

    /**
     * Compresses a chunk into the current spill segment (a new one when it is full), with the stream's own packer
     * and output buffer (made once: a compression context per chunk costs more than compressing it). Called
     * holding this.
     */
    private Spilled spill(byte[] b, int off, int len) throws IOException {
        if (segment == null || segment.size >= SEGMENT) {
            seal();
            segment = new Segment(run.spillDir().resolve(index + "." + (segments++) + codec.extension()));
        }
        if (zc == null) {
            zc = codec.packer();
        }
        int bound = zc.bound(len);
        if (zbuf.length < bound) {
            zbuf = new byte[bound];
        }
        int packed = zc.pack(b, off, len, zbuf);
        Segment s = segment;
        ByteBuffer bb = ByteBuffer.wrap(zbuf, 0, packed);
        long at = s.size;
        while (bb.hasRemaining()) {
            s.ch.write(bb, at + bb.position());
        }
        s.size += packed;
        s.pending += openReaders;
        run.spilled(len);
        return new Spilled(s, at, packed, len);
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

    /** Frees the producer's packer (no more spills). Called holding this. */
    private void closeCompressor() {
        if (zc != null) {
            zc.close();
            zc = null;
        }
        zbuf = new byte[0];
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
            closeCompressor();
            wakeReaders();
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

    /**
     * Wakes the readers waiting for this stream: from now on they are no longer counted as waiting for records
     * ({@link LiveRun#admit}), though they run only once they get this lock back. Called holding this.
     */
    private void wakeReaders() {
        for (int r = 0; r < waiting.length; r++) {
            if (waiting[r]) {
                waiting[r] = false;
                awaited--;
                run.readerWaits(false);
            }
        }
        notifyAll();
    }

    /** Readers waiting for this stream's next chunk now (tests: to start producing once the readers read). */
    synchronized int awaitingReaders() {
        return awaited;
    }

    /** True if a reader waits for this stream's next chunk ({@link LiveRun#admit}). */
    boolean awaited() {
        return awaited > 0;
    }

    /** Appends a chunk. Called holding this. */
    private void append(Object c) {
        if (count == ring.length) {
            Object[] r = new Object[ring.length * 2];
            for (int i = 0; i < count; i++) {
                r[i] = ring[(head + i) & (ring.length - 1)];
            }
            ring = r;
            head = 0;
        }
        ring[(head + count) & (ring.length - 1)] = c;
        count++;
    }

    /** Drops the chunks every reader has taken, giving in-memory ones back to the budget. Called holding this. */
    private void trim() {
        long min = CLOSED;
        for (long n : next) {
            min = Math.min(min, n);
        }
        while (count > 0 && first < min) {
            Object e = ring[head];
            ring[head] = null;
            head = (head + 1) & (ring.length - 1);
            count--;
            first++;
            if (e instanceof byte[]) {
                run.release(((byte[]) e).length);
            }
        }
    }

    /**
     * Reader r's next chunk, a {@code byte[]} in memory or a {@link Spilled} one (which the reader reads itself,
     * then calls {@link #readDone(Segment)}); null if none is there and {@code block} is false; {@code this} at the end
     * of the stream.
     */
    private Object take(int r, boolean block) throws IOException {
        synchronized (this) {
            while (next[r] == first + count && !ended) {
                if (!block) {
                    return null;
                }
                waiting[r] = true;
                awaited++;
                run.readerWaits(true);
                try {
                    wait();
                } catch (InterruptedException x) {
                    Thread.currentThread().interrupt();
                    throw new InterruptedIOException("on-the-fly analysis interrupted");
                } finally {
                    if (waiting[r]) {
                        waiting[r] = false;
                        awaited--;
                        run.readerWaits(false);
                    }
                }
            }
            if (next[r] >= first + count) {
                return this;
            }
            Object e = ring[(int) ((head + (next[r] - first)) & (ring.length - 1))];
            next[r]++;
            trim();
            return e;
        }
    }

    /** One read of a chunk of segment s is done (or will not happen). Called holding this. */
    private void readDone(Segment s) {
        if (--s.pending == 0 && s.sealed) {
            delete(s);
        }
    }

    /**
     * The analysis side, reader r (0 &le; r &lt; readers): reads the chunks in order (see
     * {@code AnalysisSink.analyseLive} for when a read blocks). One channel per reader.
     */
    ReadableByteChannel channel(int r) {
        return new ReadableByteChannel() {
            private byte[] cur;
            private int curLen;
            private int at;
            private boolean open = true;
            /** This reader's unpacker and buffers for spilled chunks (made on the first one). */
            private SpillCodec.Unpacker zd;
            private byte[] packedBuf = new byte[0];
            private byte[] rawBuf = new byte[0];

            private boolean started;

            @Override
            public int read(ByteBuffer dst) throws IOException {
                if (!started) {
                    started = true;
                    run.readerStarts(r);
                }
                int n = 0;
                while (dst.hasRemaining()) {
                    if (cur != null && at < curLen) {
                        int k = Math.min(dst.remaining(), curLen - at);
                        dst.put(cur, at, k);
                        at += k;
                        n += k;
                        continue;
                    }
                    // Block only while the reader cannot decode its next record: a call record is the longest.
                    Object c = take(r, dst.position() < SmaitFormat.CALL_BYTES);
                    if (c == null) {
                        return n;
                    }
                    if (c == LiveStream.this) {
                        return n > 0 ? n : -1;
                    }
                    if (c instanceof byte[]) {
                        cur = (byte[]) c;
                        curLen = cur.length;
                    } else {
                        unspill((Spilled) c);
                    }
                    at = 0;
                }
                return n;
            }

            /** Reads and decompresses a spilled chunk into this reader's buffer. */
            private void unspill(Spilled s) throws IOException {
                if (packedBuf.length < s.packed) {
                    packedBuf = new byte[s.packed];
                }
                ByteBuffer bb = ByteBuffer.wrap(packedBuf, 0, s.packed);
                try {
                    while (bb.hasRemaining()) {
                        if (s.seg.ch.read(bb, s.at + bb.position()) < 0) {
                            throw new IOException(s.seg.path + ": spill segment shorter than written");
                        }
                    }
                } finally {
                    synchronized (LiveStream.this) {
                        readDone(s.seg);
                    }
                }
                if (rawBuf.length < s.raw) {
                    rawBuf = new byte[s.raw];
                }
                if (zd == null) {
                    zd = codec.unpacker();
                }
                int got = zd.unpack(packedBuf, s.packed, rawBuf, s.raw);
                if (got != s.raw) {
                    throw new IOException(s.seg.path + ": a spilled chunk decompressed to " + got + " bytes, not "
                            + s.raw);
                }
                cur = rawBuf;
                curLen = s.raw;
            }

            @Override
            public boolean isOpen() {
                return open;
            }

            @Override
            public void close() {
                if (open) {
                    open = false;
                    if (zd != null) {
                        zd.close();
                        zd = null;
                    }
                    readerClosed(r);
                }
            }
        };
    }

    /**
     * Reader r stopped reading: it takes nothing more (the spilled chunks it would have read no longer keep their
     * segments); once every reader stopped, drop what is queued and what comes.
     */
    private void readerClosed(int r) {
        synchronized (this) {
            if (next[r] == CLOSED) {
                return;
            }
            for (long n = Math.max(next[r], first); n < first + count; n++) {
                Object e = ring[(int) ((head + (n - first)) & (ring.length - 1))];
                if (e instanceof Spilled) {
                    readDone(((Spilled) e).seg);
                }
            }
            next[r] = CLOSED;
            openReaders--;
            run.readerStreamClosed(r);
            trim();
            if (openReaders > 0) {
                return;
            }
            readerClosed = true;
            closeCompressor();
            if (segment != null) {
                Segment s = segment;
                segment = null;
                delete(s);
            }
        }
    }
}
