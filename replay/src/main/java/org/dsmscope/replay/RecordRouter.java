package org.dsmscope.replay;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.List;

/**
 * The router of a routed partitioned replay (SPEC §4 "Partitioning", replay/README.md "Partitioned replay"):
 * reads each thread trace once, after the prescan, and writes into each partition's {@link RoutedPipe} of that
 * thread the data accesses the partition needs ({@link Replay.Router}), every call record, and for each run of
 * accesses it does not need one {@code ROUTED_GAP} record with their count and bytes, or, for a run of at
 * most {@link Replay.Router#fill()} accesses, the accesses themselves (cheaper for the partition). Files are dealt
 * largest first to the router threads; a thread routes its files a chunk of at most {@value #CHUNK} records at a
 * time, in turn, and after each chunk hands every partition its share of everything read so far (records and the
 * gap up to there) before it looks for room: a file none of whose pipes is over its capacity goes on, and a thread
 * none of whose files can waits until a partition drains one. So no partition ever waits for records the router
 * has read, and a router waits only for a partition that has unread records of the file: that partition's replay
 * is behind the one waiting for the file, and the replay furthest behind can always go on (no deadlock, with any
 * capacity: {@code RoutedReplayTest}).
 */
final class RecordRouter {
    /** Records routed per turn of a file. */
    static final int CHUNK = RouteSplitter.STEP;

    private final Replay.Router route;
    private final int parts;
    private final ReplayOptions o;
    private final Object room;

    RecordRouter(Replay.Router route, int parts, ReplayOptions o, Object room) {
        this.route = route;
        this.parts = parts;
        this.o = o;
        this.room = room;
    }

    /** One thread trace being routed: a {@link RouteSplitter} into the thread's pipes, handing off every turn. */
    private final class File {
        final RoutedPipe[] pipes;
        final RouteSplitter split;
        boolean done;

        File(int t, Path file, RoutedPipe[] pipes) {
            this.pipes = pipes;
            split = new RouteSplitter(file, t, route, o, sinks(pipes), 16 << 10, true);
        }

        /** Thread t's live stream, read through {@code intake}. */
        File(int t, String name, LiveIntake intake, RoutedPipe[] pipes) {
            this.pipes = pipes;
            split = new RouteSplitter(intake, name, t, route, sinks(pipes), LIVE_BUFFER);
            intake.split = split;
        }

        boolean blocked() {
            for (RoutedPipe p : pipes) {
                if (p.full()) {
                    return true;
                }
            }
            return false;
        }

        /** Routes up to {@link #CHUNK} records, then hands every partition its share of what was read. */
        void turn() throws IOException {
            done = !split.step();
        }
    }

    private java.nio.channels.WritableByteChannel[] sinks(RoutedPipe[] pipes) {
        java.nio.channels.WritableByteChannel[] sinks = new java.nio.channels.WritableByteChannel[parts];
        for (int p = 0; p < parts; p++) {
            sinks[p] = pipes[p].sink();
        }
        return sinks;
    }

    /** Read buffer of a live stream's router (what the agent has handed over is taken up to this at once). */
    static final int LIVE_BUFFER = 64 << 10;

    private static boolean allBlocked(File[] fs) {
        for (File f : fs) {
            if (!f.done && !f.blocked()) {
                return false;
            }
        }
        return true;
    }

    /**
     * Routes the files {@code mine} of {@code files} on the calling thread ({@code pipes[t][p]}: thread t's pipe
     * to partition p) until all are done; returns early, leaving the rest, when {@code stop} is set.
     */
    void run(List<Path> files, int[] mine, RoutedPipe[][] pipes, java.util.concurrent.atomic.AtomicBoolean stop) {
        File[] fs = new File[mine.length];
        route(fs, stop, i -> new File(mine[i], files.get(mine[i]), pipes[mine[i]]));
    }

    /**
     * Routes thread {@code t}'s live stream from {@code source} (named {@code name}) into its pipes {@code pipes}
     * (one per partition, counting the partitions that wait on them in {@code starving}) on the calling thread until it ends, or {@code stop} is set:
     * one router thread per stream, so that the router of a thread the program holds back never keeps another
     * thread's records from the partitions ({@link LiveIntake}).
     */
    void runLive(int t, String name, Replay.Source source, RoutedPipe[] pipes,
            java.util.concurrent.atomic.AtomicInteger starving, java.util.concurrent.atomic.AtomicBoolean stop) {
        route(new File[1], stop, i -> new File(t, name, new LiveIntake(source.channel(t), source.polls(), LIVE_BUFFER,
                pipes, room, starving, stop), pipes));
    }

    /** Makes {@code fs[i]} with {@code make} and routes them until all are done or {@code stop} is set. */
    private void route(File[] fs, java.util.concurrent.atomic.AtomicBoolean stop,
            java.util.function.IntFunction<File> make) {
        try {
            for (int i = 0; i < fs.length; i++) {
                fs[i] = make.apply(i);
            }
            int left = fs.length;
            while (left > 0 && !stop.get()) {
                boolean moved = false;
                for (File f : fs) {
                    if (!f.done && !f.blocked()) {
                        f.turn();
                        moved = true;
                        if (f.done) {
                            left--;
                        }
                    }
                }
                if (!moved) {
                    synchronized (room) {
                        // checked under the lock a draining partition takes to notify, so no wake-up is lost
                        if (allBlocked(fs) && !stop.get()) {
                            room.wait(100);
                        }
                    }
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while routing the traces", e);
        } finally {
            for (File f : fs) {
                if (f != null && !f.done) {
                    f.split.close();
                }
            }
        }
    }
}
