package org.dsmscope.replay;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.Channels;
import java.nio.channels.WritableByteChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.function.Supplier;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.dsmscope.replay.gen.ForkJoinGen;
import org.dsmscope.replay.gen.ProcessGen;
import org.dsmscope.trace.TraceSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Routed replays of trace files cut into chunks ({@link Chunks}, replay/README.md "Partitioned replay"): chunks of a
 * few records, routed on any number of router threads into pipes of any size, give every partition exactly what
 * the routed replay of whole files gives it, which is the serial run ({@code RoutedReplayTest}); the routers read
 * each byte of a file once; offline, a partition replayed from chunk streams written one after the other sees the
 * same.
 */
class ChunkedRouteTest {
    @TempDir
    Path dir;

    /** Runs {@code body} with chunks of at least {@code bytes} bytes ({@link Chunks#BYTES_PROPERTY}) and routers. */
    static <T> T withChunks(long bytes, int routers, Supplier<T> body) {
        String before = System.getProperty(Chunks.BYTES_PROPERTY);
        String beforeRouters = System.getProperty(Replay.ROUTERS_PROPERTY);
        System.setProperty(Chunks.BYTES_PROPERTY, Long.toString(bytes));
        if (routers > 0) {
            System.setProperty(Replay.ROUTERS_PROPERTY, Integer.toString(routers));
        }
        try {
            return body.get();
        } finally {
            restore(Chunks.BYTES_PROPERTY, before);
            restore(Replay.ROUTERS_PROPERTY, beforeRouters);
        }
    }

    private static void restore(String key, String value) {
        if (value == null) {
            System.clearProperty(key);
        } else {
            System.setProperty(key, value);
        }
    }

    @Property(tries = 40)
    void chunksOfAFewRecords_onAnyRouterThreads_giveEveryPartitionTheSerialRun(@ForAll long seed,
            @ForAll @IntRange(min = 1, max = 6) int threads, @ForAll @IntRange(min = 0, max = 3) int partsIndex,
            @ForAll @IntRange(min = 1, max = 5) int routers, @ForAll boolean tiny) throws IOException {
        int parts = new int[] {2, 3, 7, 16}[partsIndex];
        Path d = Files.createTempDirectory("chunked");
        try {
            SplittableRandom rnd = new SplittableRandom(seed);
            TraceSet set = RoutedReplayTest.randomForkJoin(d, seed, threads, 3000, rnd);
            RoutedReplayTest.Seen serial = new RoutedReplayTest.Seen();
            new Replay(set, null, new ReplayOptions()).add(serial).run();
            long chunk = 8L << rnd.nextInt(12);
            int fill = rnd.nextBoolean() ? 0 : 1 + rnd.nextInt(8);
            Replay.Router router = RoutedReplayTest.filling(RoutedReplayTest.byPageAndThread(parts), fill);
            Replay routed = new Replay(set, null, new ReplayOptions());
            if (tiny) {
                routed.routedCapacity(rnd.nextInt(100));
            }
            List<RoutedReplayTest.Seen> ps = withChunks(chunk, routers,
                    () -> routed.runRouted(parts, k -> new RoutedReplayTest.Seen(), ctx -> router));
            RoutedReplayTest.assertSeeTheSerialRun(serial, serial.all.size() + calls(serial), routed, ps, router);
        } finally {
            ClockOrderPropertyTest.delete(d);
        }
    }

    @Property(tries = 30)
    void processTracesInChunks_giveEveryPartitionTheSerialRun(@ForAll long seed,
            @ForAll @IntRange(min = 1, max = 5) int processes, @ForAll @IntRange(min = 1, max = 3) int p,
            @ForAll @IntRange(min = 0, max = 63) int flags, @ForAll @IntRange(min = 1, max = 4) int routers)
            throws IOException {
        Path d = Files.createTempDirectory("chunkedi");
        try {
            SplittableRandom rnd = new SplittableRandom(seed);
            ProcessGen.Params g = new ProcessGen.Params();
            g.processes = processes;
            g.slices = 1 + rnd.nextInt(8);
            g.sliceInstructions = 1 + rnd.nextInt(300);
            g.readRate = rnd.nextInt(3) * 0.2;
            g.sharedFraction = rnd.nextDouble();
            g.seed = seed;
            TraceSet set = ProcessGen.write(d, "procs", g);
            ReplayOptions o = SchedulePropertyTest.schedulerOptions(p, flags);
            int parts = 2 + rnd.nextInt(6);
            Replay.Router router = RoutedReplayTest.byPageAndThread(parts);
            RoutedReplayTest.Seen serial = new RoutedReplayTest.Seen();
            Replay one = new Replay(set, null, o).add(serial);
            one.run();
            Replay routed = new Replay(set, null, o);
            routed.routedCapacity(rnd.nextInt(200));
            List<RoutedReplayTest.Seen> ps = withChunks(8L << rnd.nextInt(10), routers,
                    () -> routed.runRouted(parts, k -> new RoutedReplayTest.Seen(), ctx -> router));
            RoutedReplayTest.assertSeeTheSerialRun(serial, one.records(), routed, ps, router);
        } finally {
            ClockOrderPropertyTest.delete(d);
        }
    }

    @Test
    void aChunkSizeThatIsNotANumberOrBelow8_isRefusedNamingTheProperty() {
        String before = System.getProperty(Chunks.BYTES_PROPERTY);
        try {
            System.setProperty(Chunks.BYTES_PROPERTY, "16M");
            org.dsmscope.trace.BadInputException e = org.junit.jupiter.api.Assertions.assertThrows(
                    org.dsmscope.trace.BadInputException.class, Chunks::bytes);
            assertEquals("-Ddsmscope.chunkBytes=16M: not a whole number (at least 8)", e.getMessage());
            System.setProperty(Chunks.BYTES_PROPERTY, "3");
            assertEquals("-Ddsmscope.chunkBytes=3: out of range (at least 8)", org.junit.jupiter.api.Assertions
                    .assertThrows(org.dsmscope.trace.BadInputException.class, Chunks::bytes).getMessage());
            System.setProperty(Chunks.BYTES_PROPERTY, "8");
            assertEquals(8, Chunks.bytes());
        } finally {
            if (before == null) {
                System.clearProperty(Chunks.BYTES_PROPERTY);
            } else {
                System.setProperty(Chunks.BYTES_PROPERTY, before);
            }
        }
    }

    @Test
    void routersReadEachByteOfAChunkedFileOnce() throws IOException {
        ForkJoinGen.Params g = new ForkJoinGen.Params();
        g.threads = 3;
        g.instructions = 20000;
        TraceSet set = ForkJoinGen.write(dir, "once", g);
        Replay routed = new Replay(set, null, new ReplayOptions());
        long opened = Prescan.OPENED.get();
        long read = Chunks.BYTES_OPENED.get();
        Replay.Plan plan = withChunks(64 << 10, 4, () -> routed.plan(4, true));
        int chunks = 0;
        long bytes = 0;
        for (int t = 0; t < 3; t++) {
            int k = plan.chunks(t);
            assertTrue(k > 1, "thread " + t + " is cut into chunks");
            chunks += k;
            long sum = 0;
            for (int i = 0; i < k; i++) {
                sum += plan.chunkBytes(t, i);
            }
            long size = Files.size(set.files().get(t));
            assertEquals(size - 8, sum, "thread " + t + ": the chunks tile the file after its header");
            bytes += sum;
        }
        int total = chunks;
        Replay again = new Replay(set, null, new ReplayOptions());
        withChunks(64 << 10, 4, () -> again.runRouted(4, k -> new RoutedReplayTest.Seen(),
                ctx -> RoutedReplayTest.byPageAndThread(4)));
        assertEquals(Replay.MODE_ROUTED, again.partitionMode());
        assertEquals(3 + 3 + total, Prescan.OPENED.get() - opened, "two prescans, then each chunk once");
        assertEquals(bytes, Chunks.BYTES_OPENED.get() - read, "the routers' ranges: each byte once");
    }

    @Test
    void compressedTraces_areOneChunkEach_andRouteWhole() {
        ForkJoinGen.Params g = new ForkJoinGen.Params();
        g.threads = 2;
        g.instructions = 20000;
        g.codec = org.dsmscope.trace.Codec.ZSTD;
        TraceSet set = ForkJoinGen.write(dir, "z", g);
        Replay.Plan plan = withChunks(1 << 10, 0, () -> new Replay(set, null, new ReplayOptions()).plan(2, true));
        for (int t = 0; t < 2; t++) {
            assertEquals(1, plan.chunks(t), "a zstd frame cannot be entered in the middle");
            assertEquals(-1, plan.chunkBytes(t, 0));
        }
        RoutedReplayTest.Seen serial = new RoutedReplayTest.Seen();
        new Replay(set, null, new ReplayOptions()).add(serial).run();
        Replay routed = new Replay(set, null, new ReplayOptions());
        Replay.Router router = RoutedReplayTest.byPageAndThread(2);
        List<RoutedReplayTest.Seen> ps = withChunks(1 << 10, 0,
                () -> routed.runRouted(2, k -> new RoutedReplayTest.Seen(), ctx -> router));
        RoutedReplayTest.assertSeeTheSerialRun(serial, serial.all.size() + calls(serial), routed, ps, router);
    }

    /**
     * Offline (a Spark map task per chunk): each chunk split on its own, the streams of a partition appended in chunk
     * order and replayed, see what the partition of the live routed replay sees.
     */
    @Property(tries = 20)
    void chunkStreamsWrittenApartAndAppended_replayAsTheRoutedRun(@ForAll long seed,
            @ForAll @IntRange(min = 1, max = 4) int threads, @ForAll @IntRange(min = 2, max = 5) int parts)
            throws IOException {
        Path d = Files.createTempDirectory("chunkedsplit");
        try {
            SplittableRandom rnd = new SplittableRandom(seed);
            TraceSet set = RoutedReplayTest.randomForkJoin(d, seed, threads, 2000, rnd);
            Replay.Router router = RoutedReplayTest.byPageAndThread(parts);
            RoutedReplayTest.Seen serial = new RoutedReplayTest.Seen();
            new Replay(set, null, new ReplayOptions()).add(serial).run();
            Replay driver = new Replay(set, null, new ReplayOptions());
            Replay.Plan plan = withChunks(8L << rnd.nextInt(10), 0, () -> driver.plan(parts, true));
            assertTrue(plan.routable());
            java.io.ByteArrayOutputStream[][] streams = new java.io.ByteArrayOutputStream[threads][parts];
            for (int t = 0; t < threads; t++) {
                for (int k = 0; k < parts; k++) {
                    streams[t][k] = new java.io.ByteArrayOutputStream();
                }
                for (int c = plan.chunks(t) - 1; c >= 0; c--) {
                    // chunks split in any order, each into streams of its own
                    java.io.ByteArrayOutputStream[] mine = new java.io.ByteArrayOutputStream[parts];
                    WritableByteChannel[] out = new WritableByteChannel[parts];
                    for (int k = 0; k < parts; k++) {
                        mine[k] = new java.io.ByteArrayOutputStream();
                        out[k] = Channels.newChannel(mine[k]);
                    }
                    try (RouteSplitter s = new RouteSplitter(plan, set.files().get(t), t, c,
                            RouteSplitter.router(plan, ctx -> router), new ReplayOptions(), out)) {
                        while (s.step()) {
                            // routes the chunk
                        }
                    }
                    for (int k = 0; k < parts; k++) {
                        byte[] before = streams[t][k].toByteArray();
                        streams[t][k].reset();
                        streams[t][k].write(mine[k].toByteArray());
                        streams[t][k].write(before);
                    }
                }
            }
            List<RoutedReplayTest.Seen> ps = new ArrayList<>();
            for (int k = 0; k < parts; k++) {
                int kk = k;
                ps.add(new Replay(set, null, new ReplayOptions()).runPartition(plan, k, new RoutedReplayTest.Seen(),
                        t -> Channels.newChannel(new java.io.ByteArrayInputStream(streams[t][kk].toByteArray()))));
            }
            Replay routed = new Replay(set, null, new ReplayOptions());
            routed.runRouted(parts, k -> new RoutedReplayTest.Seen(), ctx -> router); // the mode the check asks for
            RoutedReplayTest.assertSeeTheSerialRun(serial, serial.all.size() + calls(serial), routed, ps, router);
        } catch (UncheckedIOException e) {
            throw e.getCause();
        } finally {
            ClockOrderPropertyTest.delete(d);
        }
    }

    private static long calls(RoutedReplayTest.Seen s) {
        return s.other.stream().filter(x -> x.startsWith("C ")).count();
    }
}
