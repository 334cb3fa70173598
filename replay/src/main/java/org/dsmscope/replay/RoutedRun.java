package org.dsmscope.replay;

import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntFunction;
import org.dsmscope.trace.TraceSet;
import org.dsmscope.trace.WordChannel;

/**
 * The routers' side of one routed run ({@link Replay#runRouted}, SPEC §4 "Partitioning", module README
 * "Partitioned replay"): the router threads' work, partition k's channel of each thread, and what happens to the
 * pipes when a partition ends ({@link #release}) or a part fails ({@link #abort}). Files (or chunks of large files)
 * go to {@link RecordRouter}'s threads; a live replay's streams each to a {@link LiveRouter} thread of its own.
 */
final class RoutedRun {
    private final Runnable[] routers;
    /** Partition k's channel of thread t. */
    private final IntFunction<IntFunction<WordChannel>> channels;
    private final AtomicBoolean stop;
    /** The router of files; else null. */
    private final RecordRouter router;
    /** The pipes of live streams ([thread][partition]); else null. */
    private final RoutedPipe[][] livePipes;
    /** How many partitions replay at once, where fewer than all ({@link CoreTurns}); else null. */
    private final CoreTurns turns;

    private RoutedRun(Runnable[] routers, IntFunction<IntFunction<WordChannel>> channels, AtomicBoolean stop,
            RecordRouter router, RoutedPipe[][] livePipes, CoreTurns turns) {
        this.routers = routers;
        this.channels = channels;
        this.stop = stop;
        this.router = router;
        this.livePipes = livePipes;
        this.turns = turns;
    }

    /**
     * The routed run of the trace files of {@code detailed} (prescanned by {@code pre}, its chunks dealt to the router
     * threads: one a partition unless {@link Replay#ROUTERS_PROPERTY} says otherwise, at most one a chunk) into
     * {@code parts} partitions; {@code capacity}: {@link Replay#routedCapacity(long)}, or -1; {@code atOnce}: {@link
     * Replay#partitionsAtOnce}, or -1.
     */
    static RoutedRun files(Replay.Router route, TraceSet detailed, ReplayOptions o, Prescan pre, int parts,
            long capacity, int atOnce) {
        int n = detailed.size();
        AtomicBoolean stop = new AtomicBoolean();
        int chunks = RecordRouter.total(pre.chunks);
        int workers = Math.max(1, Math.min(org.dsmscope.trace.SystemProperties.intValue(Replay.ROUTERS_PROPERTY, parts,
                1, Integer.MAX_VALUE), chunks));
        // chunks routed ahead of the partitions: one a router thread (none where every trace is one chunk)
        int window = chunks > n ? workers : 0;
        RecordRouter router = new RecordRouter(route, parts, o, new Object(), detailed.files(), pre.chunks,
                capacity(capacity, n, parts, window), window, workers);
        Runnable[] routers = new Runnable[workers];
        for (int w = 0; w < workers; w++) {
            routers[w] = () -> router.run(stop);
        }
        return new RoutedRun(routers, k -> t -> router.channel(t, k), stop, router, null,
                CoreTurns.of(parts, atOnce));
    }

    /** The routed run of the live streams of {@code source} (named by {@code named}): a router thread per stream. */
    static RoutedRun live(Replay.Router route, TraceSet named, Replay.Source source, int parts, long capacity) {
        int n = named.size();
        AtomicBoolean stop = new AtomicBoolean();
        // a router thread per stream (LiveRouter, LiveIntake)
        Object room = new Object();
        RoutedPipe[][] pipes = new RoutedPipe[n][parts];
        AtomicInteger starving = new AtomicInteger();
        long cap = capacity(capacity, n, parts, 0);
        for (int t = 0; t < n; t++) {
            for (int p = 0; p < parts; p++) {
                pipes[t][p] = new RoutedPipe(room, starving);
            }
        }
        Runnable[] routers = new Runnable[n];
        for (int t = 0; t < n; t++) {
            int me = t;
            routers[t] = () -> LiveRouter.run(route, me, named.files().get(me).toString(), source, pipes[me], cap,
                    room, starving, stop);
        }
        // no turns: a live router reads its stream by what the partitions wait for (LiveIntake), not by turns
        return new RoutedRun(routers, k -> t -> pipes[t][k].source(), stop, null, pipes, null);
    }

    /**
     * The capacity of a routed pipe: {@code set} if not negative, else 4 MiB, at most 256 MiB in all for {@code
     * threads} + {@code ahead} (chunks routed ahead) pipes to each of {@code parts} partitions, at least 64 KiB.
     */
    private static long capacity(long set, int threads, int parts, int ahead) {
        return set >= 0 ? set
                : Math.min(4L << 20, Math.max(64L << 10, (256L << 20) / ((long) (threads + ahead) * parts)));
    }

    /** How many partitions replay at once ({@link CoreTurns}), or null: all of them. */
    CoreTurns turns() {
        return turns;
    }

    /** The router threads' work. */
    Runnable[] routers() {
        return routers;
    }

    /** Partition k's channel of each thread. */
    IntFunction<WordChannel> channels(int k) {
        return channels.apply(k);
    }

    /**
     * Partition k's replay has ended: its pipes take no more records and hold none, so that no router waits for
     * it to read what it will not (a trace's records after its thread's end, say), and the routers finish.
     */
    void release(int k) {
        if (router != null) {
            router.release(k);
        }
        if (livePipes != null) {
            for (RoutedPipe[] row : livePipes) {
                row[k].release();
            }
        }
    }

    /** A part failed: the routers stop and every pipe is aborted, so that no part waits for one that failed. */
    void abort() {
        stop.set(true);
        if (router != null) {
            router.abort();
        }
        if (livePipes != null) {
            for (RoutedPipe[] row : livePipes) {
                for (RoutedPipe p : row) {
                    p.abort();
                }
            }
        }
    }
}
