package org.dsmscope.replay;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The router of one thread's live stream in a routed on-the-fly replay (SPEC §4 "Partitioning", replay/README.md
 * "Live streams"): reads the stream once, through a {@link LiveIntake}, and routes it with a {@link RouteSplitter}
 * into the thread's {@link RoutedPipe} to each partition, a step at a time, handing off after each. One router
 * thread per stream, so that the router of a thread the program holds back never keeps another thread's records
 * from the partitions. A stream one of whose pipes holds more than the capacity waits until that partition has
 * read it down to the low-water mark (the back-pressure of {@link RecordRouter}, for one stream).
 */
final class LiveRouter {
    /** Read buffer of a live stream's router (what the agent has handed over is taken up to this at once). */
    static final int BUFFER = 64 << 10;

    private LiveRouter() {
    }

    /**
     * Routes thread {@code t}'s live stream from {@code source} (named {@code name}) with {@code route} into its
     * pipes {@code pipes} (one per partition, counting the partitions that wait on them in {@code starving}) on the
     * calling thread until it ends, or {@code stop} is set; a partition that has read a pipe of more than {@code
     * cap} bytes down to the low-water mark notifies {@code room}.
     */
    static void run(Replay.Router route, int t, String name, Replay.Source source, RoutedPipe[] pipes, long cap,
            Object room, AtomicInteger starving, AtomicBoolean stop) {
        LiveIntake intake = new LiveIntake(source.channel(t), source.polls(), BUFFER, pipes, room, starving, stop);
        RouteSplitter split = new RouteSplitter(intake, name, t, route, pipes, BUFFER);
        intake.split = split;
        RoutedPipe.Hold hold = new RoutedPipe.Hold();
        boolean done = false;
        try {
            while (!done && !stop.get()) {
                if (!blocked(pipes, cap, hold)) {
                    done = !split.step();
                    continue;
                }
                synchronized (room) {
                    // checked under the lock a partition takes to notify, so no wake-up is lost
                    if (blocked(pipes, cap, hold) && !stop.get()) {
                        room.wait(100);
                    }
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while routing the streams", e);
        } finally {
            if (!done) {
                split.close();
            }
        }
    }

    /** True while a pipe holds more than {@code cap} bytes, and then until it is read down to the low-water mark. */
    private static boolean blocked(RoutedPipe[] pipes, long cap, RoutedPipe.Hold hold) {
        if (hold.waiting()) {
            return true;
        }
        for (RoutedPipe p : pipes) {
            long read = p.drain().read(); // before the bytes held: a read in between only lowers the mark
            long held = p.held();
            if (held > cap) {
                hold.start(p.drain(), read, held, RoutedPipe.Hold.low(cap));
                if (hold.waiting()) {
                    return true;
                }
            }
        }
        return false;
    }
}
