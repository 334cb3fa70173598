package org.dsmscope.replay;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.Arrays;
import org.dsmscope.trace.TraceReader;
import org.dsmscope.trace.TraceSet;
import org.dsmscope.trace.WordChannel;

/**
 * A trace set routed once into the words a routed run's pipes carry (SPEC §4 "Partitioning", module README
 * "Partitioned replay", "The routed stream"), held in memory: each thread's chunks routed in order by the
 * {@link RouteSplitter} a router thread uses, in the same steps and blocks of words, with run records, so that a
 * partition replayed from them ({@link #replay}) reads and runs exactly what partition k of {@link Replay#runRouted}
 * does, without router threads or pipes beside it (benchmarks of the partitions' own CPU). Holds every stream whole:
 * for traces that fit in memory.
 */
public final class InProcessRoutes {
    private final Replay.Plan plan;
    /** [thread][partition]: the words, and how many. */
    private final long[][][] words;
    private final int[][] lengths;

    /** Gap records written, over all threads and partitions. */
    private final long gaps;

    private InProcessRoutes(Replay.Plan plan, long[][][] words, int[][] lengths, long gaps) {
        this.plan = plan;
        this.words = words;
        this.lengths = lengths;
        this.gaps = gaps;
    }

    /** Gap records in all the streams. */
    public long gaps() {
        return gaps;
    }

    /**
     * Routes the trace set {@code ts} (read with {@code o}) for the routable {@code plan} made from it, as {@link
     * Replay#runRouted} with the analysis router {@code routing} makes (through {@link RouteSplitter#router}).
     */
    public static InProcessRoutes route(Replay.Plan plan, TraceSet ts, ReplayOptions o,
            java.util.function.Function<ReplayContext, Replay.Router> routing) {
        return route(plan, ts, o, routing, false);
    }

    /**
     * {@link #route(Replay.Plan, TraceSet, ReplayOptions, java.util.function.Function)}, with {@code gapsBySize}
     * gaps that end where the access size changes whatever the prescan found ({@link RouteSplitter#gapsBySize}).
     */
    public static InProcessRoutes route(Replay.Plan plan, TraceSet ts, ReplayOptions o,
            java.util.function.Function<ReplayContext, Replay.Router> routing, boolean gapsBySize) {
        if (!plan.routable()) {
            throw new IllegalStateException("the plan does not route");
        }
        Replay.Router planned = RouteSplitter.router(plan, routing);
        Replay.Router router = gapsBySize ? RouteSplitter.gapsBySize(planned) : planned;
        long gaps = 0;
        int n = ts.size();
        int parts = plan.parts();
        long[][][] words = new long[n][parts][];
        int[][] lengths = new int[n][parts];
        for (int t = 0; t < n; t++) {
            Held[] held = new Held[parts];
            for (int p = 0; p < parts; p++) {
                held[p] = new Held();
            }
            Path file = ts.files().get(t);
            for (int c = 0; c < plan.chunks(t); c++) {
                TraceReader r = RouteSplitter.open(plan.prescan().chunks[t], file, o, c);
                try (RouteSplitter s = new RouteSplitter(r, file.toString(), t, router, held, true, c > 0)) {
                    while (s.step()) {
                        // routes the whole chunk
                    }
                    gaps += s.gaps();
                } catch (IOException e) {
                    throw new UncheckedIOException(file + ": cannot route: " + e.getMessage(), e);
                }
            }
            for (int p = 0; p < parts; p++) {
                words[t][p] = held[p].words;
                lengths[t][p] = held[p].n;
            }
        }
        return new InProcessRoutes(plan, words, lengths, gaps);
    }

    /** Words of thread t's stream to partition k. */
    public long words(int t, int k) {
        return lengths[t][k];
    }

    /**
     * Replays partition {@code k} from the held streams on the calling thread ({@link Replay#runPartition(Replay.Plan,
     * int, Analysis, java.util.function.IntFunction)}, with words instead of bytes) on {@code replay}, a replay of the
     * routed trace set with its options; returns {@code analysis}.
     */
    public <A extends Analysis> A replay(Replay replay, int k, A analysis) {
        return replay.runRoutedPartition(plan, k, analysis, t -> channel(t, k));
    }

    /** A channel reading thread t's stream to partition k from its start. */
    private WordChannel channel(int t, int k) {
        long[] w = words[t][k];
        int len = lengths[t][k];
        return new WordChannel() {
            private int at;

            @Override
            public int read(long[] dst, int off, int max) {
                if (at >= len) {
                    return -1;
                }
                int c = Math.min(max, len - at);
                System.arraycopy(w, at, dst, off, c);
                at += c;
                return c;
            }
        };
    }

    /** A sink that appends every block to one growing array. */
    private static final class Held implements RoutedWriter.Sink {
        long[] words = new long[1024];
        int n;

        @Override
        public long[] block(long[] block, int count) {
            if (n + count > words.length) {
                if ((long) n + count > Integer.MAX_VALUE - 16) {
                    throw new IllegalStateException("a routed stream too large to hold in memory");
                }
                words = Arrays.copyOf(words, Math.max(n + count, (int) Math.min(Integer.MAX_VALUE - 16,
                        2L * words.length)));
            }
            System.arraycopy(block, 0, words, n, count);
            n += count;
            return block;
        }

        @Override
        public void end() {
        }
    }
}
