package org.dsmscope.agent.core;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.ByteBuffer;
import java.nio.channels.ReadableByteChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.dsmscope.agent.sink.AnalysisSink;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A thread's live record stream with several readers (a partitioned on-the-fly analysis): every reader gets every
 * byte in order, from memory or from the spill; a chunk holds its share of the budget until the last reader took
 * it; spill segments go once every reader has read them (or stopped reading).
 */
class LiveStreamTest {
    @TempDir
    Path dir;

    private LiveRun run(int readers, long budget) {
        return run(readers, budget, "zstd");
    }

    /** A run whose producers spill at once beyond the budget (backpressure off: the spill's own tests). */
    private LiveRun run(int readers, long budget, String codec) {
        return run(readers, budget, codec, false, 1);
    }

    private LiveRun run(int readers, long budget, String codec, boolean backpressure, int threads) {
        System.setProperty("dsmscope.live.budget", Long.toString(budget));
        System.setProperty("dsmscope.live.backpressure", Boolean.toString(backpressure));
        try {
            AgentOptions o = AgentOptions.parse("level=2,type=to_ciat,threads=" + threads + ",codec=" + codec + ",name="
                    + dir.resolve("x"), Map.of());
            return LiveRun.create(o, new AnalysisSink() {
                @Override
                public boolean handles(String type) {
                    return true;
                }

                @Override
                public String check(String type, List<String> options) {
                    return null;
                }

                @Override
                public List<Path> analyse(String type, String base, List<Path> threadFiles, String calls,
                        List<String> options, PrintStream log) {
                    throw new UnsupportedOperationException("a live stream test never analyses at the end of a run");
                }

                @Override
                public int liveReaders(String type, List<String> options) {
                    return readers;
                }
            }, System.err);
        } finally {
            System.clearProperty("dsmscope.live.budget");
            System.clearProperty("dsmscope.live.backpressure");
        }
    }

    private static byte[] chunk(int i, int len) {
        byte[] b = new byte[len];
        for (int k = 0; k < len; k++) {
            b[k] = (byte) (i * 31 + k * 7);
        }
        return b;
    }

    /** Writes chunks {@code from} .. {@code to - 1} of {@code len} bytes to {@code w}, and to {@code all}. */
    private static void writeChunks(OutputStream w, ByteArrayOutputStream all, int from, int to, int len)
            throws IOException {
        for (int i = from; i < to; i++) {
            byte[] c = chunk(i, len);
            all.write(c);
            w.write(c, 0, c.length);
        }
    }

    /** Everything reader r's channel delivers until the end of the stream. */
    private static byte[] readAll(ReadableByteChannel ch) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteBuffer buf = ByteBuffer.allocate(4096);
        while (true) {
            buf.clear();
            int n = ch.read(buf);
            if (n < 0) {
                return out.toByteArray();
            }
            out.write(buf.array(), 0, n);
        }
    }

    private long spillFiles() throws IOException {
        try (Stream<Path> s = Files.walk(dir)) {
            return s.filter(f -> f.getFileName().toString().matches(".*\\.(zst|lz4)")).count();
        }
    }

    @Test
    void twoReaders_eachGetEveryByteInOrder_fromMemoryAndSpill_andTheSpillGoesWhenBothHaveReadIt() throws Exception {
        twoReaders("zstd");
    }

    @Test
    void theLz4Codec_spillsInItsOwnSegments_andReadsBackTheSameBytes() throws Exception {
        twoReaders("lz4");
    }

    private void twoReaders(String codec) throws Exception {
        LiveRun run = run(2, 5000, codec);
        OutputStream w = run.stream(0);
        LiveStream s = (LiveStream) w;
        ByteArrayOutputStream all = new ByteArrayOutputStream();
        for (int i = 0; i < 40; i++) {
            byte[] c = chunk(i, 1000 + i);
            all.write(c);
            w.write(c, 0, c.length);
        }
        w.close();
        assertTrue(run.queuedBytes() > 0 && run.queuedBytes() <= 5000, "in memory within the budget");
        assertTrue(run.spilledBytes() > 30_000, "beyond the budget, chunks spill: " + run.spilledBytes());
        assertArrayEquals(all.toByteArray(), readAll(s.channel(0)));
        assertTrue(spillFiles() > 0, "reader 1 has not read the spill yet");
        try (Stream<Path> f = Files.walk(dir)) {
            String ext = codec.equals("lz4") ? ".lz4" : ".zst";
            assertTrue(f.anyMatch(x -> x.getFileName().toString().endsWith(ext)), "segments named " + ext);
        }
        assertTrue(run.queuedBytes() > 0, "reader 1 has not taken the in-memory chunks yet");
        assertArrayEquals(all.toByteArray(), readAll(s.channel(1)));
        assertEquals(0, spillFiles(), "both readers read the spill: deleted");
        assertEquals(0, run.queuedBytes(), "both readers took every chunk: the budget is free");
    }

    @Test
    void aChunkKeepsItsBudgetUntilTheLastReaderTookIt() throws Exception {
        LiveRun run = run(2, 2000);
        OutputStream w = run.stream(0);
        LiveStream s = (LiveStream) w;
        ReadableByteChannel r0 = s.channel(0);
        ReadableByteChannel r1 = s.channel(1);
        w.write(chunk(0, 1000), 0, 1000);
        w.write(chunk(1, 1000), 0, 1000);
        ByteBuffer buf = ByteBuffer.allocate(2000);
        assertEquals(2000, r0.read(buf));
        assertEquals(2000, run.queuedBytes(), "reader 1 has not taken them");
        w.write(chunk(2, 1000), 0, 1000);
        assertEquals(1000, run.spilledBytes(), "no room while reader 1 lags");
        buf = ByteBuffer.allocate(2000);
        assertEquals(2000, r1.read(buf));
        assertEquals(0, run.queuedBytes(), "both took the first two chunks");
        w.write(chunk(3, 1000), 0, 1000);
        assertEquals(1000, run.spilledBytes(), "room again: in memory");
        w.close();
        byte[] rest0 = readAll(r0);
        byte[] rest1 = readAll(r1);
        assertEquals(2000, rest0.length);
        assertArrayEquals(rest0, rest1);
        assertEquals(0, spillFiles());
    }

    @Test
    void aReaderThatStops_holdsNothingBack_theOtherReadsEverything() throws Exception {
        LiveRun run = run(3, 0);
        OutputStream w = run.stream(0);
        LiveStream s = (LiveStream) w;
        ReadableByteChannel r2 = s.channel(2);
        ByteArrayOutputStream all = new ByteArrayOutputStream();
        writeChunks(w, all, 0, 10, 700);
        s.channel(1).close(); // stops before reading anything
        ByteBuffer one = ByteBuffer.allocate(700);
        r2.read(one); // reader 2 reads one chunk, then stops
        r2.close();
        writeChunks(w, all, 10, 20, 700);
        w.close();
        assertArrayEquals(all.toByteArray(), readAll(s.channel(0)));
        assertEquals(0, spillFiles(), "the stopped readers keep no segment");
        assertEquals(0, run.queuedBytes());
    }

    @Test
    void threeReadersOnThreadsOfTheirOwn_whileTheProducerWrites_eachGetEveryByte_andNothingIsLeft() throws Exception {
        LiveRun run = run(3, 40_000);
        OutputStream w = run.stream(0);
        LiveStream s = (LiveStream) w;
        java.util.SplittableRandom rnd = new java.util.SplittableRandom(7);
        ByteArrayOutputStream all = new ByteArrayOutputStream();
        byte[][] chunks = new byte[3000][];
        for (int i = 0; i < chunks.length; i++) {
            chunks[i] = chunk(i, 1 + rnd.nextInt(3000));
            all.write(chunks[i]);
        }
        byte[][] got = new byte[3][];
        Throwable[] failed = new Throwable[3];
        // reader 2 reads slowly, so that chunks wait for it in memory and then spill
        Thread[] readers = {reader(s.channel(0), false, got, 0, failed), reader(s.channel(1), false, got, 1, failed),
            reader(s.channel(2), true, got, 2, failed)};
        for (byte[] c : chunks) {
            w.write(c, 0, c.length);
        }
        w.close();
        // the producer never waits: 4.5 MB written at once overran the 40 KB budget while reader 2 lagged
        assertTrue(run.spilledBytes() > 0, "some chunks spilled");
        for (Thread t : readers) {
            t.join(60_000);
        }
        for (int r = 0; r < 3; r++) {
            assertEquals(null, failed[r], "reader " + r);
            assertArrayEquals(all.toByteArray(), got[r], "reader " + r);
        }
        assertEquals(0, spillFiles());
        assertEquals(0, run.queuedBytes());
    }

    /** Reads a channel to its end on a thread of its own; {@code slow}: yields often (a lagging reader). */
    private static Thread reader(ReadableByteChannel ch, boolean slow, byte[][] got, int slot, Throwable[] failed) {
        Thread t = new Thread(() -> {
            try {
                ByteBuffer buf = ByteBuffer.allocate(slow ? 512 : 8192);
                ByteArrayOutputStream out = new ByteArrayOutputStream();
                while (true) {
                    buf.clear();
                    int n = ch.read(buf);
                    if (n < 0) {
                        break;
                    }
                    out.write(buf.array(), 0, n);
                    if (slow) {
                        Thread.yield();
                    }
                }
                got[slot] = out.toByteArray();
            } catch (Throwable e) {
                failed[slot] = e;
            }
        });
        t.start();
        return t;
    }

    @Test
    void withBackpressure_theProducerWaitsForReadersAtWork_nothingSpills_andMemoryStaysWithinTwiceTheBudget() throws Exception {
        LiveRun run = run(2, 40_000, "zstd", true, 1);
        OutputStream w = run.stream(0);
        LiveStream s = (LiveStream) w;
        java.util.SplittableRandom rnd = new java.util.SplittableRandom(11);
        ByteArrayOutputStream all = new ByteArrayOutputStream();
        byte[][] got = new byte[2][];
        Throwable[] failed = new Throwable[2];
        Thread[] readers = {reader(s.channel(0), false, got, 0, failed), reader(s.channel(1), true, got, 1, failed)};
        // a reader that has not begun to read frees nothing, so a producer does not wait for it but spills: start
        // producing once both read (on a busy machine the threads may start after the budget filled)
        for (int i = 0; i < 10_000 && s.awaitingReaders() < 2; i++) {
            Thread.sleep(1);
        }
        assertEquals(2, s.awaitingReaders(), "both readers wait for the first chunk");
        long most = 0;
        for (int i = 0; i < 3000; i++) {
            byte[] c = chunk(i, 1 + rnd.nextInt(3000));
            all.write(c);
            w.write(c, 0, c.length);
            most = Math.max(most, run.queuedBytes());
        }
        w.close();
        for (Thread t : readers) {
            t.join(60_000);
        }
        for (int r = 0; r < 2; r++) {
            assertEquals(null, failed[r], "reader " + r);
            assertArrayEquals(all.toByteArray(), got[r], "reader " + r);
        }
        // one stream: while the budget is full some reader has chunks to take, so the producer waits, never spills
        assertEquals(0, run.spilledBytes(), "4.5 MB through a 40 KB budget without a spill");
        // beyond the budget only for a reader that waits for this stream (the other lags): up to twice the budget
        assertTrue(most <= 80_000, "in memory within twice the budget: " + most);
        assertEquals(0, spillFiles());
        assertEquals(0, run.queuedBytes());
    }

    @Test
    void withBackpressure_whenEveryReaderWaitsForAnotherStream_theProducerSpills_insteadOfDeadlocking()
            throws Exception {
        // The reader needs stream 1 first (the replay waits for the thread with the smallest clock) while the
        // producer fills the budget with stream 0: waiting for the reader would never end, so stream 0 spills.
        LiveRun run = run(1, 10_000, "zstd", true, 2);
        LiveStream s0 = (LiveStream) run.stream(0);
        LiveStream s1 = (LiveStream) run.stream(1);
        ByteArrayOutputStream all0 = new ByteArrayOutputStream();
        ByteArrayOutputStream all1 = new ByteArrayOutputStream();
        byte[][] got = new byte[2][];
        Throwable[] failed = new Throwable[2];
        Thread reader = new Thread(() -> {
            try {
                got[1] = readAll(s1.channel(0));
                got[0] = readAll(s0.channel(0));
            } catch (Throwable e) {
                failed[0] = e;
            }
        });
        reader.start();
        writeChunks(s0, all0, 0, 100, 1000);
        s0.close();
        byte[] c = chunk(7, 3000);
        all1.write(c);
        s1.write(c, 0, c.length);
        s1.close();
        reader.join(60_000);
        assertEquals(null, failed[0]);
        assertArrayEquals(all1.toByteArray(), got[1]);
        assertArrayEquals(all0.toByteArray(), got[0]);
        assertTrue(run.spilledBytes() >= 90_000, "stream 0 beyond the budget spilled: " + run.spilledBytes());
        assertEquals(0, spillFiles());
        assertEquals(0, run.queuedBytes());
    }

    /**
     * A reader that reads its channels on threads of its own (a routed analysis: a router thread per stream) waits
     * for two streams to be made at once: each wait is counted once and ends when its stream is made, so once the
     * streams have ended nobody is counted as waiting (a count left behind would make every producer spill).
     */
    @Test
    void oneReaderWaitingForTwoStreamsOnTwoThreads_isCountedOncePerStream_andNotAfterwards() throws Exception {
        LiveRun run = run(1, 1 << 20, "zstd", true, 2);
        byte[][] got = new byte[2][];
        Throwable[] failed = new Throwable[2];
        Thread[] readers = new Thread[2];
        for (int t = 0; t < 2; t++) {
            int tt = t;
            readers[t] = new Thread(() -> {
                try {
                    got[tt] = readAll(run.channel(0, tt));
                } catch (Throwable e) {
                    failed[tt] = e;
                }
            });
            readers[t].start();
        }
        for (int i = 0; i < 10_000 && run.waitingReaders() < 2; i++) {
            Thread.sleep(1);
        }
        assertEquals(2, run.waitingReaders(), "both threads wait for their stream to be made");
        for (int t = 0; t < 2; t++) {
            OutputStream w = run.stream(t);
            byte[] c = chunk(t, 100);
            w.write(c, 0, c.length);
            w.close();
        }
        for (Thread r : readers) {
            r.join(60_000);
        }
        for (int t = 0; t < 2; t++) {
            assertEquals(null, failed[t]);
            assertArrayEquals(chunk(t, 100), got[t]);
        }
        assertEquals(0, run.waitingReaders(), "no wait left counted");
    }

    @Test
    void aHint_reachesEveryReaderAfterTheBytesWrittenBeforeIt_butNotTheKeptCopy() throws Exception {
        LiveRun run = run(2, 1 << 20, "zstd", true, 1);
        LiveStream s = (LiveStream) run.stream(0);
        byte[] before = chunk(1, 500);
        byte[] hint = chunk(2, 48);
        byte[] after = chunk(3, 200);
        s.write(before, 0, before.length);
        s.hint(hint);
        s.write(after, 0, after.length);
        s.close();
        ByteArrayOutputStream want = new ByteArrayOutputStream();
        want.write(before);
        want.write(hint);
        want.write(after);
        assertArrayEquals(want.toByteArray(), readAll(s.channel(0)));
        assertArrayEquals(want.toByteArray(), readAll(s.channel(1)));
        assertEquals(0, run.queuedBytes());
    }
}
