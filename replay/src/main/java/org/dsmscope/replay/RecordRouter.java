package org.dsmscope.replay;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import org.dsmscope.trace.TraceReader;
import org.dsmscope.trace.WordChannel;

/**
 * The router of a routed partitioned replay (SPEC §4 "Partitioning", replay/README.md "Partitioned replay"):
 * reads each thread trace once, after the prescan, and writes into each partition's {@link RoutedPipe} of that
 * thread the data accesses the partition needs ({@link Replay.Router}), every call record, and for each run of
 * accesses it does not need one {@code ROUTED_GAP} record with their count and bytes, or, for a run of at
 * most {@link Replay.Router#fill()} accesses, the accesses themselves (cheaper for the partition).
 *
 * <p>The unit of routing is a chunk: a whole trace, or a piece of a large uncompressed one that the prescan cut at
 * a record boundary ({@link Chunks}). Each chunk has a pipe of its own to each partition, and a partition reads a
 * thread's chunk pipes one after the other as one stream ({@link #channel}). The router threads share the chunks:
 * each routes the chunks it took in turns of at most {@value #TURN} records, and after each turn hands every
 * partition its share of everything read so far (records and the gap up to there). Chunk c of thread t goes on
 * while no partition holds more than the capacity unread in the pipes of t's chunks up to c (a partition's unread
 * bytes before the records routed next; later chunks do not count); once stopped, it goes on when that partition
 * has read them down to the low-water mark ({@link RoutedPipe.Hold}), whose read wakes the router. A thread's chunk is <i>needed</i> once a
 * partition has read the chunk before it to the end; a needed chunk is taken at once, by a router thread none of
 * whose chunks can go on, or by a busy one when none is free; up to {@code window} other chunks, the next of the
 * threads least far on, are routed ahead of the partitions by router threads that are free. A router thread none
 * of whose chunks can go on and that can take none waits until a partition it waits for reaches the low-water mark
 * or a partition finishes a chunk.
 *
 * <p>No deadlock, with any capacity and window ({@code RoutedReplayTest}, {@code ChunkedRouteTest}): as with whole
 * files, a partition never waits for records a router has read, so a partition waiting for a thread's record waits
 * for the chunk that holds it, which is needed, so taken, and stopped only by another partition that holds more
 * than the capacity unread in that thread before the record: the replay furthest behind can always go on.
 * Threads' state: the scheduling fields below are guarded by {@code room}, the lock a partition takes to notify; a
 * chunk's splitter is used by the one router thread that took it.
 */
final class RecordRouter {
    /** Records routed per turn of a chunk. */
    static final int TURN = RouteSplitter.STEP;

    private final Replay.Router route;
    private final int parts;
    private final ReplayOptions o;
    private final Object room;
    private final List<Path> files;
    private final Chunks[] chunks;
    /** Chunks per thread. */
    private final int[] count;
    /** Bytes of chunk c of thread t (what the needed chunks are taken by: largest first). */
    private final long[][] bytes;
    /** {@code pipes[t][c][p]}: chunk c of thread t to partition p. */
    private final RoutedPipe[][][] pipes;
    /** {@code drains[t][p]}: what partition p has read of thread t's chunk pipes. */
    private final RoutedPipe.Drain[][] drains;
    private final int window;
    private final long cap;

    // guarded by room
    /** Per thread: chunks taken by a router thread. */
    private final int[] started;
    /** Per thread: chunks every partition has read to the end. */
    private final int[] consumed;
    /** Per thread: the furthest chunk a partition reads (chunks up to it are needed). */
    private final int[] reached;
    /** Per thread and chunk: partitions that have read it to the end. */
    private final int[][] finishedBy;
    /** Chunks taken beyond each thread's first unread one, summed over the threads. */
    private int ahead;
    /** Chunks not taken yet. */
    private int untaken;
    /** Partitions whose replay has ended ({@link #release}), under room. */
    private int ended;
    /** Router threads in all, and those with a chunk that can go on. */
    private final int workers;
    private int busy;

    /**
     * The router of {@code files} (thread t's cut into {@code chunks[t]}, or whole where null) into {@code parts}
     * partitions, pipes of {@code cap} bytes, up to {@code window} chunks routed ahead.
     */
    RecordRouter(Replay.Router route, int parts, ReplayOptions o, Object room, List<Path> files, Chunks[] chunks,
            long cap, int window, int workers) {
        this.workers = workers;
        this.route = route;
        this.parts = parts;
        this.o = o;
        this.room = room;
        this.files = files;
        this.chunks = chunks;
        this.window = window;
        this.cap = cap;
        int n = files.size();
        count = new int[n];
        bytes = new long[n][];
        pipes = new RoutedPipe[n][][];
        started = new int[n];
        consumed = new int[n];
        reached = new int[n];
        finishedBy = new int[n][];
        drains = new RoutedPipe.Drain[n][parts];
        for (int t = 0; t < n; t++) {
            Chunks cs = chunks[t];
            int k = cs == null ? 1 : cs.count();
            count[t] = k;
            untaken += k;
            bytes[t] = new long[k];
            finishedBy[t] = new int[k];
            pipes[t] = new RoutedPipe[k][parts];
            for (int p = 0; p < parts; p++) {
                drains[t][p] = new RoutedPipe.Drain();
            }
            for (int c = 0; c < k; c++) {
                bytes[t][c] = cs == null ? size(files.get(t)) : cs.to(c) - cs.from(c);
                for (int p = 0; p < parts; p++) {
                    pipes[t][c][p] = new RoutedPipe(room, drains[t][p]);
                }
            }
        }
    }

    /** Chunks in all. */
    static int total(Chunks[] chunks) {
        int k = 0;
        for (Chunks c : chunks) {
            k += c == null ? 1 : c.count();
        }
        return k;
    }

    private static long size(Path p) {
        try {
            return java.nio.file.Files.size(p);
        } catch (IOException e) {
            return 0; // the router's open reports it
        }
    }

    /** Partition p's stream of thread t: its chunk pipes one after the other. */
    WordChannel channel(int t, int p) {
        return new WordChannel() {
            private int c;
            private WordChannel cur = pipes[t][0][p].source();

            @Override
            public int read(long[] dst, int off, int max) throws IOException {
                for (;;) {
                    int n = cur.read(dst, off, max);
                    if (n >= 0) {
                        return n;
                    }
                    finished(t, c);
                    if (++c == count[t]) {
                        cur = null;
                        return -1;
                    }
                    cur = pipes[t][c][p].source();
                }
            }
        };
    }

    /** A partition has read chunk c of thread t to the end. */
    private void finished(int t, int c) {
        synchronized (room) {
            int before = aheadOf(t);
            reached[t] = Math.max(reached[t], c + 1);
            ahead += aheadOf(t) - before;
            if (++finishedBy[t][c] == parts) {
                consumed[t] = Math.max(consumed[t], c + 1);
            }
            room.notifyAll();
        }
    }

    /** Chunks of thread t taken beyond the furthest a partition reads. */
    private int aheadOf(int t) {
        return Math.max(0, started[t] - reached[t] - 1);
    }

    /**
     * Partition k has ended: its pipes drop what they hold and what comes (see {@link RoutedPipe#release}); once
     * every partition has ended, the router threads stop (a chunk no partition will read is never needed, so it
     * would never be taken).
     */
    void release(int k) {
        for (RoutedPipe[][] thread : pipes) {
            for (RoutedPipe[] chunk : thread) {
                chunk[k].release();
            }
        }
        synchronized (room) {
            if (++ended == parts) {
                room.notifyAll();
            }
        }
    }

    /** Ends both sides of every pipe after a failure elsewhere. */
    void abort() {
        for (RoutedPipe[][] thread : pipes) {
            for (RoutedPipe[] chunk : thread) {
                for (RoutedPipe p : chunk) {
                    p.abort();
                }
            }
        }
    }

    /** One chunk being routed: a {@link RouteSplitter} into its pipes, handing off every turn. */
    private final class Part {
        final int t;
        final int c;
        final RouteSplitter split;
        /** The partition this chunk waits for, while it does. */
        final RoutedPipe.Hold hold = new RoutedPipe.Hold();
        boolean done;

        Part(int t, int c) {
            this.t = t;
            this.c = c;
            Path file = files.get(t);
            TraceReader r = RouteSplitter.open(chunks[t], file, o, c);
            split = new RouteSplitter(r, file.toString(), t, route, pipes[t][c], true, c > 0);
        }

        /**
         * True while a partition holds more than the capacity unread in thread t's chunks up to this one, and then
         * until it has read them down to the low-water mark.
         */
        boolean blocked() {
            if (hold.waiting()) {
                return true;
            }
            int from = 0;
            if (count[t] > 1) {
                synchronized (room) {
                    from = consumed[t];
                }
            }
            for (int p = 0; p < parts; p++) {
                long read = drains[t][p].read(); // before the bytes held: a read in between only lowers the mark
                long held = 0;
                for (int k = from; k <= c; k++) {
                    held += pipes[t][k][p].held();
                }
                if (held > cap) {
                    hold.start(drains[t][p], read, held, RoutedPipe.Hold.low(cap));
                    if (hold.waiting()) {
                        return true;
                    }
                }
            }
            return false;
        }

        /** Routes up to {@link #TURN} records, then hands every partition its share of what was read. */
        void turn() throws IOException {
            done = !split.step();
        }
    }

    private static boolean allBlocked(List<Part> ps) {
        for (Part f : ps) {
            if (!f.done && !f.blocked()) {
                return false;
            }
        }
        return true;
    }

    /**
     * Takes a chunk for the calling router thread, under {@code room}: a needed one (largest first, then the
     * lowest thread) if the thread is {@code idle} (none of its chunks can go on) or no router thread is, else, if
     * {@code idle}, the next chunk of the thread least far on while fewer than {@link #window} are ahead; returns
     * {thread, chunk}, or null.
     */
    private int[] take(boolean idle) {
        int best = -1;
        for (int t = 0; t < count.length && (idle || busy == workers); t++) {
            int c = started[t];
            if (c < count[t] && c <= reached[t] && (best < 0 || bytes[t][c] > bytes[best][started[best]])) {
                best = t;
            }
        }
        if (best < 0 && idle && ahead < window) {
            for (int t = 0; t < count.length; t++) {
                if (started[t] < count[t] && (best < 0 || started[t] < started[best])) {
                    best = t;
                }
            }
        }
        if (best < 0) {
            return null;
        }
        int before = aheadOf(best);
        started[best]++;
        ahead += aheadOf(best) - before;
        untaken--;
        return new int[] {best, started[best] - 1};
    }

    /** Routes chunks on the calling thread until none is left to take or route; returns early when {@code stop} is set. */
    void run(AtomicBoolean stop) {
        List<Part> mine = new ArrayList<>();
        boolean counted = false;
        try {
            while (!stop.get()) {
                int[] next;
                synchronized (room) {
                    if (ended == parts) {
                        return;
                    }
                    boolean idle = allBlocked(mine);
                    if (counted == idle) {
                        // counted among the busy router threads while a chunk of this one can go on
                        busy += idle ? -1 : 1;
                        counted = !idle;
                    }
                    next = take(idle);
                }
                if (next != null) {
                    mine.add(new Part(next[0], next[1]));
                }
                boolean moved = false;
                for (Part f : mine) {
                    if (!f.done && !f.blocked()) {
                        f.turn();
                        moved = true;
                    }
                }
                mine.removeIf(f -> f.done);
                if (!moved && next == null) {
                    synchronized (room) {
                        if (mine.isEmpty() && untaken == 0) {
                            return;
                        }
                        // checked under the lock a draining partition takes to notify, so no wake-up is lost
                        if (allBlocked(mine) && !stop.get() && !canTake() && ended < parts) {
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
            if (counted) {
                synchronized (room) {
                    busy--;
                }
            }
            for (Part f : mine) {
                if (!f.done) {
                    f.split.close();
                }
            }
        }
    }

    /** True if an idle router thread could take a chunk now (under {@code room}). */
    private boolean canTake() {
        for (int t = 0; t < count.length; t++) {
            if (started[t] < count[t] && (started[t] <= reached[t] || ahead < window)) {
                return true;
            }
        }
        return false;
    }
}
