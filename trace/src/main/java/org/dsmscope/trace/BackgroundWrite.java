package org.dsmscope.trace;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.WritableByteChannel;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;

/**
 * The output side of a {@link TraceWriter} with {@link TraceWriter.Options#background}: full buffers go to one
 * I/O thread that compresses (the channel is the codec's) and writes them in order, while the writer fills the
 * next buffer; so encoding, compression and the copy into the file system overlap on two cores.
 *
 * <p>Threading: the writer's thread calls {@link #swap} and {@link #finish}; the I/O thread, started on the
 * first full buffer (a small file never starts one), owns the channel until {@link #finish} has joined it. The
 * buffers circulate through two bounded queues, so nothing is allocated per buffer. The first I/O error is kept
 * and thrown to the writer's thread at its next {@link #swap} or at {@link #finish}.
 */
final class BackgroundWrite {
    /** Buffers in circulation: one being filled, the rest queued or being written. */
    static final int BUFFERS = 4;

    private final WritableByteChannel out;
    private final String name;
    private final BlockingQueue<ByteBuffer> full = new ArrayBlockingQueue<>(BUFFERS);
    private final BlockingQueue<ByteBuffer> free = new ArrayBlockingQueue<>(BUFFERS);
    /** Marks the end of the stream in {@link #full}. */
    private final ByteBuffer end = ByteBuffer.allocate(0);
    private Thread thread;
    private volatile IOException failure;
    private long written;

    /** Writes to {@code out} (named {@code name} in errors); {@code spares} are the buffers beside the first. */
    BackgroundWrite(WritableByteChannel out, String name, ByteBuffer[] spares) {
        this.out = out;
        this.name = name;
        for (ByteBuffer b : spares) {
            free.add(b);
        }
    }

    /** Hands over {@code filledBuf} (position 0, limit at its end) and returns an empty buffer to fill. */
    ByteBuffer swap(ByteBuffer filledBuf) {
        check();
        if (thread == null) {
            thread = new Thread(this::run, "dsmscope-trace-io " + name);
            thread.setDaemon(true);
            thread.start();
        }
        put(full, filledBuf);
        ByteBuffer b = take(free);
        check();
        return b;
    }

    /** Writes {@code last} (may be empty), waits for every buffer to be written; returns bytes written in all. */
    long finish(ByteBuffer last) {
        if (thread == null) {
            try {
                drain(last);
            } catch (UncheckedIOException e) {
                failure = e.getCause();
            }
        } else {
            put(full, last);
            put(full, end);
            boolean interrupted = false;
            while (true) {
                try {
                    thread.join();
                    break;
                } catch (InterruptedException e) {
                    interrupted = true;
                }
            }
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
        check();
        return written;
    }

    private void run() {
        while (true) {
            ByteBuffer b = take(full);
            if (b == end) {
                return;
            }
            if (failure == null) {
                try {
                    drain(b);
                } catch (UncheckedIOException e) {
                    failure = e.getCause();
                }
            }
            b.clear();
            put(free, b);
        }
    }

    private void drain(ByteBuffer b) {
        try {
            while (b.hasRemaining()) {
                written += out.write(b);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private void check() {
        IOException e = failure;
        if (e != null) {
            throw new UncheckedIOException(name + ": cannot write trace: " + e.getMessage(), e);
        }
    }

    private static void put(BlockingQueue<ByteBuffer> q, ByteBuffer b) {
        boolean interrupted = false;
        while (true) {
            try {
                q.put(b);
                break;
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    private static ByteBuffer take(BlockingQueue<ByteBuffer> q) {
        boolean interrupted = false;
        ByteBuffer b;
        while (true) {
            try {
                b = q.take();
                break;
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
        return b;
    }
}
