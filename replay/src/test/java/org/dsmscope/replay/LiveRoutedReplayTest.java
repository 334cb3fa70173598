package org.dsmscope.replay;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.ReadableByteChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicIntegerArray;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.dsmscope.replay.RoutedReplayTest.Seen;
import org.dsmscope.replay.gen.ForkJoinGen;
import org.dsmscope.trace.BadInputException;
import org.dsmscope.trace.TraceSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A routed replay of live streams ({@link Replay#runRouted} on {@link Replay#live}, module README "Partitioned
 * replay", live streams): each thread's stream read once, by its own router thread, routed into the partitions,
 * which see exactly what the serial live replay sees of the accesses they are given, with gaps in place and the
 * serial run's calls, waits, phases and times; streams that arrive in chunks of any size, sources that poll and
 * sources that block, a join hint whose join record comes only after the worker's end.
 */
class LiveRoutedReplayTest {
    @TempDir
    Path dir;

    /**
     * What the agent hands over, here the trace files' bytes in random pieces of 1 to 4,096 bytes (seeded per
     * thread); with {@code polls} a read into a buffer holding at least 48 bytes returns 0 now and then, as the
     * agent's streams do while nothing has arrived. Counts the channels opened per thread.
     */
    static final class Chunked implements Replay.Source {
        final TraceSet set;
        final Prescan pre;
        final long seed;
        final boolean polls;
        final AtomicIntegerArray opened;

        Chunked(TraceSet set, long seed, boolean polls) {
            this.set = set;
            this.pre = new Prescan(set.size(), new ReplayOptions(), new Problems());
            pre.run(set, null, false);
            this.seed = seed;
            this.polls = polls;
            this.opened = new AtomicIntegerArray(set.size());
        }

        @Override
        public ReadableByteChannel channel(int thread) {
            opened.incrementAndGet(thread);
            byte[] bytes;
            try {
                bytes = Files.readAllBytes(set.files().get(thread));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            SplittableRandom rnd = new SplittableRandom(seed * 31 + thread);
            return new ReadableByteChannel() {
                private int at;

                @Override
                public int read(ByteBuffer dst) {
                    if (at == bytes.length) {
                        return -1;
                    }
                    if (polls && dst.position() >= 48 && rnd.nextInt(3) == 0) {
                        return 0;
                    }
                    int k = Math.min(Math.min(dst.remaining(), 1 + rnd.nextInt(4096)), bytes.length - at);
                    dst.put(bytes, at, k);
                    at += k;
                    return k;
                }

                @Override
                public boolean isOpen() {
                    return true;
                }

                @Override
                public void close() {
                }
            };
        }

        @Override
        public long firstCallTime() {
            return pre.t0;
        }

        @Override
        public boolean hasFetch(int thread) {
            return false;
        }

        @Override
        public boolean isSyncVariable(long address) {
            return pre.isSyncVariable(address);
        }

        @Override
        public boolean polls() {
            return polls;
        }
    }

    @Property(tries = 40)
    void routedLivePartitions_seeWhatTheSerialLiveReplaySeesOfTheirAccesses_eachStreamReadOnce(@ForAll long seed,
            @ForAll @IntRange(min = 1, max = 6) int threads, @ForAll @IntRange(min = 0, max = 2) int partsIndex,
            @ForAll boolean tiny, @ForAll boolean polls, @ForAll boolean fill) throws IOException {
        int parts = new int[] {2, 3, 7}[partsIndex];
        Path d = Files.createTempDirectory("liveroute");
        try {
            routeLive(d, seed, threads, parts, tiny, polls, fill);
        } finally {
            ClockOrderPropertyTest.delete(d);
        }
    }

    private static void routeLive(Path d, long seed, int threads, int parts, boolean tiny, boolean polls,
            boolean fill) {
        SplittableRandom rnd = new SplittableRandom(seed);
        TraceSet set = RoutedReplayTest.randomForkJoin(d, seed, threads, 3000, rnd);
        Seen serial = new Seen();
        Replay one = Replay.live(set, new Chunked(set, seed, polls), new ReplayOptions()).add(serial);
        one.run();
        Chunked source = new Chunked(set, seed + 1, polls);
        Replay routed = Replay.live(set, source, new ReplayOptions());
        assertTrue(routed.routesLive(parts));
        if (tiny) {
            routed.routedCapacity(rnd.nextInt(100));
        }
        Replay.Router router = RoutedReplayTest.filling(RoutedReplayTest.byPageAndThread(parts), fill ? 8 : 0);
        List<Seen> ps = routed.runRouted(parts, k -> new Seen(), ctx -> router);
        RoutedReplayTest.assertSeeTheSerialRun(serial, one.records(), routed, ps, router);
        for (int t = 0; t < threads; t++) {
            assertEquals(1, source.opened.get(t), "thread " + t + "'s stream opened once");
        }
    }

    /**
     * A marker that stops all threads (command 3, resumed by 4) taking effect inside another thread's routed gap of
     * live streams (no prescan to see it first): each partition runs the gap's piece before the stop with its own
     * bytes and drops the stopped piece, so it sees the serial live replay's accesses, clocks and bytes.
     */
    @Test
    void aStopAllMarkerInsideARoutedGapOfLiveStreams_givesEveryPartitionTheSerialBytes() {
        for (int before = 0; before <= 6; before += 3) {
            for (int inside = 1; inside <= 7; inside += 3) {
                TraceSet set = RoutedReplayTest.stopAll(dir, before, inside);
                Seen serial = new Seen();
                Replay one = Replay.live(set, new Chunked(set, 7, false), new ReplayOptions()).add(serial);
                one.run();
                Replay r = Replay.live(set, new Chunked(set, 7, false), new ReplayOptions());
                List<Seen> ps = r.runRouted(2, k -> new Seen(), ctx -> RoutedReplayTest.byPageAndThread(2));
                RoutedReplayTest.assertSeeTheSerialRun(serial, one.records(), r, ps,
                        RoutedReplayTest.byPageAndThread(2));
            }
        }
    }

    @Test
    void aJoinHint_reachesThePartitionsBeforeTheJoinRecordExists_andTheRoutedRunEqualsTheSerialLiveOne()
            throws Exception {
        TraceSet hinted = LiveHintTest.forkJoin(dir, "hinted", true);
        // the prescan of the same run without hints (a file holds none) answers for the source
        Prescan pre = new Prescan(3, new ReplayOptions(), new Problems());
        pre.run(LiveHintTest.forkJoin(dir, "plain", false), null, false);
        Seen serial = new Seen();
        Replay one = Replay.live(hinted, LiveHintTest.gated(hinted, pre), new ReplayOptions()).add(serial);
        assertTimeoutPreemptively(Duration.ofSeconds(20), () -> one.run());
        for (int parts : new int[] {2, 3}) {
            for (long cap : new long[] {0, 64, 1 << 20}) {
                // main's stream stops after each hint until the worker's stream ended; with small pipes the
                // workers' routers wait for the partitions, which must have main's hint to replay the workers
                Replay routed = Replay.live(hinted, LiveHintTest.gated(hinted, pre), new ReplayOptions())
                        .routedCapacity(cap);
                Replay.Router router = RoutedReplayTest.byPageAndThread(parts);
                List<Seen> ps = assertTimeoutPreemptively(Duration.ofSeconds(20),
                        () -> routed.runRouted(parts, k -> new Seen(), ctx -> router));
                RoutedReplayTest.assertSeeTheSerialRun(serial, one.records(), routed, ps, router);
            }
        }
    }

    @Test
    void liveReplaysThatCannotRoute_sayWhy_andABranchRecordInAStreamIsRefused() {
        ForkJoinGen.Params p = new ForkJoinGen.Params();
        p.threads = 3;
        p.instructions = 2000;
        TraceSet set = ForkJoinGen.write(dir, "plain", p);
        Chunked source = new Chunked(set, 1, false);
        assertFalse(Replay.live(set, source, new ReplayOptions()).routesLive(1), "one partition");
        ReplayOptions skip = new ReplayOptions();
        skip.skipBadRecords = true;
        assertFalse(Replay.live(set, source, skip).routesLive(2), "skipping bad records");
        assertFalse(Replay.live(set, List.of(source, source), new ReplayOptions()).routesLive(2),
                "a source per partition");
        assertFalse(new Replay(set, null, new ReplayOptions()).routesLive(2), "trace files");
        // a source per partition runs one replay per partition, as before
        Replay two = Replay.live(set, List.of(new Chunked(set, 2, false), new Chunked(set, 3, false)),
                new ReplayOptions());
        two.runRouted(2, k -> new Seen(), ctx -> RoutedReplayTest.byPageAndThread(2));
        assertEquals(Replay.MODE_REPLAYS, two.partitionMode());
        // branch records: a producer that writes them asks for a source per partition; met by the router, refused
        p.branches = true;
        TraceSet branches = ForkJoinGen.write(dir, "branches", p);
        Replay live = Replay.live(branches, new Chunked(branches, 4, true), new ReplayOptions());
        BadInputException e = assertThrows(BadInputException.class, () -> assertTimeoutPreemptively(
                Duration.ofSeconds(20), () -> live.runRouted(2, k -> new Seen(),
                        ctx -> RoutedReplayTest.byPageAndThread(2))));
        assertTrue(e.getMessage().contains("branches.3.") && e.getMessage().contains("a routed replay takes memory"
                + " and call records only"), e.getMessage());
    }
}
