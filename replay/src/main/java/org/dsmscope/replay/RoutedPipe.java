package org.dsmscope.replay;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.ReadableByteChannel;
import java.nio.channels.WritableByteChannel;
import java.util.ArrayDeque;

/**
 * One thread's records for one partition of a routed replay ({@link RecordRouter}): the router writes whole chunks of
 * SMAIT words ({@link #sink}), the partition's {@code TraceReader} reads them ({@link #source}), blocking until
 * more come. A write never blocks, so a gap or a partition's share is always accepted; the router itself waits
 * while a pipe holds more than {@link #cap} bytes, and only after it has handed every partition its share of what
 * it has read ({@link RecordRouter}). {@link #abort} wakes both sides after a failure. Chunks the partition has
 * read are kept (at most {@value #SPARES}) for the router's next writes, so that routing does not allocate (and
 * the collector does not copy) a new buffer for every chunk of the trace.
 */
final class RoutedPipe {
    /** Drained chunks kept for reuse. */
    static final int SPARES = 4;
    private final ArrayDeque<ByteBuffer> chunks = new ArrayDeque<>();
    /** Drained chunks, cleared, for {@link #buffer}. */
    private final ArrayDeque<ByteBuffer> spare = new ArrayDeque<>(SPARES);
    private final long cap;
    /** Notified when this pipe drains to {@link #cap} or less, or empty (the router waiting for room). */
    private final Object room;
    /** Also notify {@link #room} when a read empties the pipe (a chunk's router counts the held bytes of its thread). */
    private final boolean notifyEmpty;
    private long held;
    private boolean ended;
    private boolean aborted;
    /**
     * Partitions waiting on an empty pipe, counted by every pipe of a live routed replay ({@link #wanted}); null:
     * this pipe tells nothing (trace files).
     */
    private final java.util.concurrent.atomic.AtomicInteger starving;
    /** True while the partition waits for records and none is here (only if {@link #starving} is counted). */
    private volatile boolean wanted;

    RoutedPipe(long cap, Object room) {
        this(cap, room, null, false);
    }

    /**
     * A pipe of {@code cap} bytes whose router waits on {@code room}; {@code starving} (or null): a partition that
     * finds it empty counts itself there while it waits, is {@link #wanted}, and notifies {@code room} (a live
     * router reads its stream blocking once every partition waits so, {@link LiveIntake}).
     */
    RoutedPipe(long cap, Object room, java.util.concurrent.atomic.AtomicInteger starving) {
        this(cap, room, starving, false);
    }

    /** A pipe of capacity {@code cap} whose drains notify {@code room}; {@code notifyEmpty}: also on emptying. */
    RoutedPipe(long cap, Object room, boolean notifyEmpty) {
        this(cap, room, null, notifyEmpty);
    }

    private RoutedPipe(long cap, Object room, java.util.concurrent.atomic.AtomicInteger starving,
            boolean notifyEmpty) {
        this.cap = cap;
        this.room = room;
        this.starving = starving;
        this.notifyEmpty = notifyEmpty;
    }

    /** True while the partition waits on this pipe, empty (a pipe made to tell its wants; else always false). */
    boolean wanted() {
        return wanted;
    }

    /** Bytes held (written, not yet read). */
    synchronized long held() {
        return held;
    }

    /** True while the pipe holds more than its capacity. */
    synchronized boolean full() {
        return held > cap;
    }

    /** Ends both sides after a failure elsewhere: reads then fail, writes are dropped. */
    void abort() {
        synchronized (this) {
            aborted = true;
            notifyAll();
        }
        synchronized (room) {
            room.notifyAll();
        }
    }

    /**
     * A buffer for a chunk of {@code n} bytes: a spare one if one holds them and is not over twice as large (so
     * that the pipe's memory stays within twice the bytes it holds), else a new one.
     */
    private ByteBuffer buffer(int n) {
        synchronized (this) {
            for (int i = spare.size(); i > 0; i--) {
                ByteBuffer b = spare.poll();
                if (b.capacity() >= n && b.capacity() <= 2 * n) {
                    return b;
                }
                spare.add(b);
            }
        }
        return ByteBuffer.allocate(n);
    }

    /** The router's side. */
    WritableByteChannel sink() {
        return new WritableByteChannel() {
            @Override
            public int write(ByteBuffer src) {
                int n = src.remaining();
                ByteBuffer copy = buffer(n);
                copy.put(src).flip();
                synchronized (RoutedPipe.this) {
                    if (!aborted && n > 0) {
                        chunks.add(copy);
                        held += n;
                        satisfied();
                        RoutedPipe.this.notifyAll();
                    }
                }
                return n;
            }

            @Override
            public boolean isOpen() {
                return true;
            }

            @Override
            public void close() {
                synchronized (RoutedPipe.this) {
                    ended = true;
                    RoutedPipe.this.notifyAll();
                }
            }
        };
    }

    /** Marks the pipe {@link #wanted} if it is empty and wakes the router (outside this pipe's lock: room first). */
    private void tellWant() {
        boolean tell;
        synchronized (this) {
            tell = chunks.isEmpty() && !ended && !aborted && !wanted;
            if (tell) {
                wanted = true;
                starving.incrementAndGet();
            }
        }
        if (tell) {
            synchronized (room) {
                room.notifyAll();
            }
        }
    }

    /** The partition has records again (or the end): no longer {@link #wanted}. Called holding this. */
    private void satisfied() {
        if (wanted) {
            wanted = false;
            starving.decrementAndGet();
        }
    }

    /** The partition's side. */
    ReadableByteChannel source() {
        return new ReadableByteChannel() {
            @Override
            public int read(ByteBuffer dst) throws IOException {
                if (starving != null) {
                    tellWant();
                }
                int n = 0;
                boolean drained;
                synchronized (RoutedPipe.this) {
                    while (chunks.isEmpty() && !ended && !aborted) {
                        try {
                            RoutedPipe.this.wait();
                        } catch (InterruptedException e) {
                            Thread.currentThread().interrupt();
                            throw new IOException("interrupted while waiting for routed records", e);
                        }
                    }
                    if (aborted) {
                        throw new IOException("the routed replay stopped (another part failed)");
                    }
                    satisfied();
                    if (chunks.isEmpty()) {
                        return -1;
                    }
                    boolean wasFull = held > cap;
                    while (dst.hasRemaining() && !chunks.isEmpty()) {
                        ByteBuffer head = chunks.peek();
                        int k = Math.min(head.remaining(), dst.remaining());
                        int lim = head.limit();
                        head.limit(head.position() + k);
                        dst.put(head);
                        head.limit(lim);
                        n += k;
                        if (!head.hasRemaining()) {
                            chunks.poll();
                            if (spare.size() < SPARES) {
                                spare.add(head.clear());
                            }
                        }
                    }
                    held -= n;
                    drained = wasFull && held <= cap || notifyEmpty && held == 0;
                }
                if (drained) {
                    synchronized (room) {
                        room.notifyAll();
                    }
                }
                return n;
            }

            @Override
            public boolean isOpen() {
                return true;
            }

            @Override
            public void close() {
                // the reader is done; the router may still hand over records, which are dropped with the pipe
            }
        };
    }
}
