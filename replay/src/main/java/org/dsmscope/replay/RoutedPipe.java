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
 * it has read ({@link RecordRouter}). {@link #abort} wakes both sides after a failure.
 */
final class RoutedPipe {
    private final ArrayDeque<ByteBuffer> chunks = new ArrayDeque<>();
    private final long cap;
    /** Notified when this pipe drains to {@link #cap} or less, or empty (the router waiting for room). */
    private final Object room;
    /** Also notify {@link #room} when a read empties the pipe (a chunk's router counts the held bytes of its thread). */
    private final boolean notifyEmpty;
    private long held;
    private boolean ended;
    private boolean aborted;

    RoutedPipe(long cap, Object room) {
        this(cap, room, false);
    }

    /** A pipe of capacity {@code cap} whose drains notify {@code room}; {@code notifyEmpty}: also on emptying. */
    RoutedPipe(long cap, Object room, boolean notifyEmpty) {
        this.cap = cap;
        this.room = room;
        this.notifyEmpty = notifyEmpty;
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

    /** The router's side. */
    WritableByteChannel sink() {
        return new WritableByteChannel() {
            @Override
            public int write(ByteBuffer src) {
                int n = src.remaining();
                ByteBuffer copy = ByteBuffer.allocate(n);
                copy.put(src).flip();
                synchronized (RoutedPipe.this) {
                    if (!aborted && n > 0) {
                        chunks.add(copy);
                        held += n;
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

    /** The partition's side. */
    ReadableByteChannel source() {
        return new ReadableByteChannel() {
            @Override
            public int read(ByteBuffer dst) throws IOException {
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
