package org.dsmscope.replay;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.List;
import org.dsmscope.trace.CallType;
import org.dsmscope.trace.MemType;
import org.dsmscope.trace.RecordKind;
import org.dsmscope.trace.TraceReader;
import org.dsmscope.trace.TraceWriter;

/**
 * The router of a routed partitioned replay (SPEC §4 "Partitioning", replay/README.md "Partitioned replay"):
 * reads each thread trace once, after the prescan, and writes into each partition's {@link RoutedPipe} of that
 * thread the data accesses the partition needs ({@link Replay.Router}), every call record, and for each run of
 * accesses it does not need one {@link CallType#ROUTED_GAP} record with their count and bytes, or, for a run of at
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
    static final int CHUNK = 4096;

    private final Replay.Router route;
    private final int parts;
    private final ReplayOptions o;
    private final Object room;
    /** {@link Replay.Router#fill()}: the longest gap given as its accesses instead. */
    private final int fill;

    RecordRouter(Replay.Router route, int parts, ReplayOptions o, Object room) {
        this.route = route;
        this.fill = Math.max(0, route.fill());
        this.parts = parts;
        this.o = o;
        this.room = room;
    }

    /** One thread trace being routed. */
    private final class File {
        final int t;
        final TraceReader r;
        final RoutedPipe[] pipes;
        final TraceWriter[] w;
        /** Per partition: index (among this trace's memory records) of the first one it has not been given. */
        final long[] next;
        /** Per partition: the trace's data bytes up to {@link #next}. */
        final long[] bytesAt;
        /** Per partition: where its run of words in the current batch starts, or -1. */
        final int[] runFrom;
        final int[] to;
        long idx;
        long bytes;
        boolean done;

        File(int t, Path file, RoutedPipe[] pipes) throws IOException {
            this.t = t;
            this.pipes = pipes;
            this.r = Prescan.open(file, o);
            w = new TraceWriter[parts];
            next = new long[parts];
            bytesAt = new long[parts];
            runFrom = new int[parts];
            to = new int[Math.max(parts, 1)];
            java.util.Arrays.fill(runFrom, -1);
            for (int p = 0; p < parts; p++) {
                w[p] = new TraceWriter(pipes[p].sink(), file.toString(), TraceWriter.Options.classic().addr64(true)
                        .bufferBytes(16 << 10));
                w[p].flush();
            }
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
            int left = CHUNK;
            while (left > 0 && !done) {
                int n = r.nextRun(left);
                if (n > 0) {
                    batch(r.runWords(), r.runStart(), n, r.addressHigh());
                    left -= n;
                    continue;
                }
                int k = r.next();
                left--;
                if (k == RecordKind.MEMORY) {
                    int size = r.size();
                    int c = route.route(t, r.address(), size, to);
                    for (int i = 0; i < c; i++) {
                        int p = to[i];
                        gap(p);
                        w[p].copy(r);
                        next[p] = idx + 1;
                        bytesAt[p] = bytes + Math.max(size, 0);
                    }
                    idx++;
                    bytes += Math.max(size, 0);
                } else if (k == RecordKind.EOF) {
                    for (int p = 0; p < parts; p++) {
                        gap(p);
                        w[p].close();
                    }
                    Prescan.close(r);
                    done = true;
                    return;
                } else {
                    // calls (and, in a trace the prescan let through, any other record): every partition
                    for (int p = 0; p < parts; p++) {
                        gap(p);
                        w[p].copy(r);
                    }
                }
            }
            for (int p = 0; p < parts; p++) {
                gap(p);
                w[p].flush();
            }
        }

        /** A run of memory-record words (the prescan found no other kind in this trace). */
        private void batch(long[] words, int from, int n, long high) {
            long base = idx - from;
            int[] to = this.to;
            for (int i = from, end = from + n; i < end; i++) {
                long word = words[i];
                int f1 = (int) (word >>> 32);
                int size = MemType.bytes(f1);
                int c = route.route(t, high | (word & 0xFFFFFFFFL), size, to);
                long at = base + i;
                for (int j = 0; j < c; j++) {
                    int p = to[j];
                    long g = at - next[p];
                    if (g > 0 && g <= fill && next[p] >= base + from && fillable(words, (int) (next[p] - base), i)) {
                        // the few accesses p does not need before this one go to it themselves instead of a gap
                        if (runFrom[p] < 0) {
                            runFrom[p] = (int) (next[p] - base);
                        }
                    } else {
                        if (runFrom[p] >= 0 && g > 0) {
                            flushRun(p, words, base, high);
                        }
                        if (runFrom[p] < 0) {
                            gapTo(p, at, bytes);
                            runFrom[p] = i;
                        }
                    }
                    next[p] = at + 1;
                    bytesAt[p] = bytes + size;
                }
                bytes += size;
            }
            idx += n;
            for (int p = 0; p < parts; p++) {
                if (runFrom[p] >= 0) {
                    flushRun(p, words, base, high);
                }
            }
        }

        /** True if the memory words {@code a} to {@code b - 1} are each of at least one byte within one 4 KiB page. */
        private boolean fillable(long[] words, int a, int b) {
            for (int k = a; k < b; k++) {
                long word = words[k];
                int size = MemType.bytes((int) (word >>> 32));
                if (size <= 0 || (word & 0xFFF) + size > 0x1000) {
                    return false;
                }
            }
            return true;
        }

        private void flushRun(int p, long[] words, long base, long high) {
            int from = runFrom[p];
            w[p].words(words, from, (int) (next[p] - base) - from, high);
            runFrom[p] = -1;
        }

        /** The gap of partition p up to the current record. */
        private void gap(int p) {
            gapTo(p, idx, bytes);
        }

        /** Writes partition p's gap up to memory record {@code upTo}, whose data bytes before it are {@code b}. */
        private void gapTo(int p, long upTo, long b) {
            long count = upTo - next[p];
            if (count > 0) {
                long gb = b - bytesAt[p];
                w[p].call(CallType.ROUTED_GAP, 0, 0, count, gb & 0xFFFFFFFFL, gb >>> 32, 0);
                next[p] = upTo;
                bytesAt[p] = b;
            }
        }
    }

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
        try {
            for (int i = 0; i < mine.length; i++) {
                fs[i] = new File(mine[i], files.get(mine[i]), pipes[mine[i]]);
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
                    Prescan.close(f.r);
                }
            }
        }
    }
}
