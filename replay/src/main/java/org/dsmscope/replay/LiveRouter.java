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
 * from the partitions. A stream whose pipes are all over their capacity waits until a partition drains one (the
 * back-pressure of {@link RecordRouter}, for one stream).
 */
final class LiveRouter {
    /** Read buffer of a live stream's router (what the agent has handed over is taken up to this at once). */
    static final int BUFFER = 64 << 10;

    private LiveRouter() {
    }

    /**
     * Routes thread {@code t}'s live stream from {@code source} (named {@code name}) with {@code route} into its
     * pipes {@code pipes} (one per partition, counting the partitions that wait on them in {@code starving}) on the
     * calling thread until it ends, or {@code stop} is set; drains of the pipes notify {@code room}.
     */
    static void run(Replay.Router route, int t, String name, Replay.Source source, RoutedPipe[] pipes, Object room,
            AtomicInteger starving, AtomicBoolean stop) {
        java.nio.channels.WritableByteChannel[] sinks = new java.nio.channels.WritableByteChannel[pipes.length];
        for (int p = 0; p < pipes.length; p++) {
            sinks[p] = pipes[p].sink();
        }
        LiveIntake intake = new LiveIntake(source.channel(t), source.polls(), BUFFER, pipes, room, starving, stop);
        RouteSplitter split = new RouteSplitter(intake, name, t, route, sinks, BUFFER);
        intake.split = split;
        boolean done = false;
        try {
            while (!done && !stop.get()) {
                if (!blocked(pipes)) {
                    done = !split.step();
                    continue;
                }
                synchronized (room) {
                    // checked under the lock a draining partition takes to notify, so no wake-up is lost
                    if (blocked(pipes) && !stop.get()) {
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

    private static boolean blocked(RoutedPipe[] pipes) {
        for (RoutedPipe p : pipes) {
            if (p.full()) {
                return true;
            }
        }
        return false;
    }
}
