package org.dsmscope.replay;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.ReadableByteChannel;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * One thread's live stream as its router reads it (a routed replay of live streams, {@link Replay#runRouted};
 * module README "Partitioned replay", live streams; SPEC §4 "Partitioning", seed 000 §2 {@code to_ciat}). Before
 * every read of the stream, which may wait for the program, the router hands each partition everything it has
 * routed ({@link RouteSplitter#handOff}), so no partition waits for records the router holds. A source that polls
 * ({@link Replay.Source#polls}) is only looked at, never waited on, while some partition still has records to
 * replay: the router then waits on the routers' room between looks, at most {@value #POLL_MS} ms at a time,
 * instead of inside the source, where the agent would count it as a reader starved of records and let its
 * producers spill rather than wait for the analysis (agent/README.md "Readers"): the router of a thread that writes
 * nothing for a while (main in a join, whose hint the partitions already have), or of a thread whose producer
 * waits for the budget that another thread's records fill while a partition is still at work on them. It reads
 * the stream blocking once every partition waits for records and one waits for this thread's ({@link
 * RoutedPipe#wanted}): then the analysis does wait for the program, as a serial live replay waits for a thread's
 * next record.
 */
final class LiveIntake implements ReadableByteChannel {
    /** Longest wait between two looks at a stream no partition waits for. */
    static final long POLL_MS = 10;
    /** Bytes a polling read leaves before what it reads ({@link Replay.Source#polls}: a call record's 48). */
    private static final int HOLD = 48;

    private final ReadableByteChannel in;
    private final RoutedPipe[] pipes;
    private final Object room;
    private final AtomicBoolean stop;
    /** Partitions waiting on an empty pipe ({@link RoutedPipe}), and how many there are. */
    private final java.util.concurrent.atomic.AtomicInteger starving;
    private final int parts;
    /** For a polling source: where a look at the stream puts what it finds (after {@link #HOLD} bytes). */
    private final ByteBuffer stage;
    /** The splitter reading this intake, once made (the reads of its constructor hand nothing off). */
    RouteSplitter split;

    /**
     * Thread t's stream {@code in} for the partitions' pipes {@code pipes} of that thread (made to tell their wants),
     * whose router waits on {@code room}; {@code polls}: the source returns 0 from a read into a buffer holding at
     * least {@value #HOLD} bytes when it has nothing; reads end once {@code stop} is set.
     */
    LiveIntake(ReadableByteChannel in, boolean polls, int bufferBytes, RoutedPipe[] pipes, Object room,
            java.util.concurrent.atomic.AtomicInteger starving, AtomicBoolean stop) {
        this.in = in;
        this.starving = starving;
        this.parts = pipes.length;
        this.pipes = pipes;
        this.room = room;
        this.stop = stop;
        this.stage = polls ? ByteBuffer.allocate(HOLD + bufferBytes) : null;
    }

    /** True if every partition waits for records and one of them waits for this thread's. */
    private boolean needed() {
        if (starving.get() < parts) {
            return false;
        }
        for (RoutedPipe p : pipes) {
            if (p.wanted()) {
                return true;
            }
        }
        return false;
    }

    @Override
    public int read(ByteBuffer dst) throws IOException {
        if (split != null) {
            split.handOff();
        }
        if (stage == null) {
            return in.read(dst);
        }
        for (;;) {
            if (stop.get()) {
                throw new IOException("the routed replay stopped (another part failed)");
            }
            if (needed()) {
                return in.read(dst);
            }
            stage.clear().position(HOLD).limit(HOLD + Math.min(dst.remaining(), stage.capacity() - HOLD));
            int n = in.read(stage);
            if (n != 0) {
                if (n > 0) {
                    stage.flip().position(HOLD);
                    dst.put(stage);
                }
                return n;
            }
            synchronized (room) {
                // checked under the lock a waiting partition takes to notify, so no wake-up is lost
                if (!needed() && !stop.get()) {
                    try {
                        room.wait(POLL_MS);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        throw new java.io.InterruptedIOException("interrupted while routing a live stream");
                    }
                }
            }
        }
    }

    @Override
    public boolean isOpen() {
        return in.isOpen();
    }

    @Override
    public void close() throws IOException {
        in.close();
    }
}
