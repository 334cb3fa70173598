package org.dsmscope.replay;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.ReadableByteChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import org.dsmscope.trace.BadInputException;
import org.dsmscope.trace.CallType;
import org.dsmscope.trace.MemType;
import org.dsmscope.trace.TraceSet;
import org.dsmscope.trace.TraceWriter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The on-the-fly join hint ({@link CallType#LIVE_JOIN}): a thread that has begun an untimed join waits in the
 * replay from the hint, so the others go on although its join record is not written yet (the agent writes it when
 * the join returns); the results are those of its trace files; a run that breaks the promise is reported.
 */
class LiveHintTest {
    @TempDir
    Path dir;

    /** Main spawns two workers, joins them (with hints when {@code hints}), then works a little. */
    static TraceSet forkJoin(Path dir, String name, boolean hints) throws IOException {
        List<Path> files = new ArrayList<>();
        for (int t = 0; t < 3; t++) {
            Path f = dir.resolve(TraceSet.fileName(name, 3, t));
            try (TraceWriter w = TraceWriter.create(f, new TraceWriter.Options().addr64(true))) {
                if (t == 0) {
                    loads(w, 5, 0x1000);
                    w.call(CallType.SPAWN, 1, 2, 1, 1, 1, 0);
                    w.call(CallType.SPAWN, 3, 4, 1, 1, 2, 0);
                    loads(w, 3, 0x1000);
                    for (int u = 1; u <= 2; u++) {
                        if (hints) {
                            w.call(CallType.LIVE_JOIN, 5 + u, 5 + u, 0, 0, u, 0);
                        }
                        w.call(CallType.JOIN, 5 + u, 90 + u, 0, 0, u, 0);
                    }
                    loads(w, 2, 0x1000);
                } else {
                    loads(w, 100 * t, 0x8000L * t);
                    for (int i = 0; i < 50; i++) {
                        w.memory(MemType.STORE, 8, MemType.FIXED, 0x20000 + 8L * i);
                    }
                }
            }
            files.add(f);
        }
        return TraceSet.of(dir.resolve(name + ".3").toString(), files);
    }

    private static void loads(TraceWriter w, int n, long addr) {
        for (int i = 0; i < n; i++) {
            w.memory(MemType.LOAD, 4, MemType.FIXED, addr + 4L * i);
        }
    }

    /**
     * Main's bytes, handed out up to the end of its k-th hint record only once worker k's channel has reached its
     * end (as the agent's stream would: the join record comes after the joined thread's last record); the workers'
     * bytes at once.
     */
    static Replay.Source gated(TraceSet set, Prescan pre) throws IOException {
        CountDownLatch[] ended = {null, new CountDownLatch(1), new CountDownLatch(1)};
        byte[] mainBytes = Files.readAllBytes(set.files().get(0));
        List<Integer> cuts = new ArrayList<>();
        ByteBuffer bb = ByteBuffer.wrap(mainBytes);
        for (int i = 0; i + 8 <= mainBytes.length; i += 8) {
            if (bb.getInt(i) == (0x1000 | CallType.LIVE_JOIN << 4)) {
                cuts.add(i + 48);
            }
        }
        assertEquals(2, cuts.size(), "two hints in main's trace");
        return source(thread -> thread == 0 ? channel(new Reads() {
            private int at;

            @Override
            public int read(ByteBuffer dst) throws IOException {
                if (at == mainBytes.length) {
                    return -1;
                }
                int end = mainBytes.length;
                for (int k = 0; k < cuts.size(); k++) {
                    if (at < cuts.get(k)) {
                        end = cuts.get(k);
                        break;
                    }
                    if (at == cuts.get(k)) {
                        try {
                            ended[k + 1].await(); // the join record is written after the worker ends
                        } catch (InterruptedException e) {
                            throw new InterruptedIOException();
                        }
                    }
                }
                int n = Math.min(dst.remaining(), end - at);
                dst.put(mainBytes, at, n);
                at += n;
                return n;
            }
        }) : counting(file(set, thread), ended[thread]), pre.t0, pre);
    }

    /** {@code f}, counting {@code end} down when it reaches its end. */
    private static ReadableByteChannel counting(ReadableByteChannel f, CountDownLatch end) {
        return channel(dst -> {
            int n = f.read(dst);
            if (n < 0) {
                end.countDown();
            }
            return n;
        });
    }

    /** A read function (a channel's {@code read}). */
    private interface Reads {
        int read(ByteBuffer dst) throws IOException;
    }

    /** A channel that reads with {@code r}. */
    private static ReadableByteChannel channel(Reads r) {
        return new ReadableByteChannel() {
            @Override
            public int read(ByteBuffer dst) throws IOException {
                return r.read(dst);
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

    /** Thread t's file. */
    private static ReadableByteChannel file(TraceSet set, int t) {
        try {
            return java.nio.channels.FileChannel.open(set.files().get(t));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A live source: the channels, the first call time and the prescan's synchronization variables. */
    private static Replay.Source source(java.util.function.IntFunction<ReadableByteChannel> channels, long t0,
            Prescan pre) {
        return new Replay.Source() {
            @Override
            public ReadableByteChannel channel(int thread) {
                return channels.apply(thread);
            }

            @Override
            public long firstCallTime() {
                return t0;
            }

            @Override
            public boolean hasFetch(int thread) {
                return false;
            }

            @Override
            public boolean isSyncVariable(long address) {
                return pre.isSyncVariable(address);
            }
        };
    }

    @Test
    void aJoinHint_letsTheOthersRunBeforeTheJoinRecordExists_andGivesTheResultsOfTheTraceFiles() throws Exception {
        TraceSet plain = forkJoin(dir, "plain", false);
        Recorder files = TestTraces.replay(plain);
        TraceSet hinted = forkJoin(dir, "hinted", true);
        Prescan pre = new Prescan(3, new ReplayOptions(), new Problems());
        pre.run(plain, null, false);
        Recorder live = new Recorder();
        Replay r = Replay.live(hinted, gated(hinted, pre), new ReplayOptions()).add(live);
        // without the hint the replay would wait for main's join record, which comes only after the workers' ends
        assertTimeoutPreemptively(Duration.ofSeconds(20), () -> r.run());
        assertEquals(files.log.toString(), live.log.toString());
        assertTrue(files.calls.stream().anyMatch(c -> c.startsWith("0 0 ") && c.contains("join wait ")),
                "main waited in its joins");
        assertEquals(List.of(), r.problems());
    }

    @Test
    void aHintInATraceFile_isABadRecord() throws Exception {
        TraceSet hinted = forkJoin(dir, "file", true);
        BadInputException e = assertThrows(BadInputException.class, () -> TestTraces.replay(hinted));
        assertTrue(e.getMessage().contains("unknown call type 30"), e.getMessage());
    }

    @Test
    void aJoinThatDidNotReturn_isReported_andTheRestReplayed() throws Exception {
        // main hints a join of worker 1, then the program ends (end_trace, cut off) before the join returns
        List<Path> files = new ArrayList<>();
        for (int t = 0; t < 2; t++) {
            Path f = dir.resolve(TraceSet.fileName("cut", 2, t));
            try (TraceWriter w = TraceWriter.create(f, new TraceWriter.Options().addr64(true))) {
                if (t == 0) {
                    w.call(CallType.SPAWN, 1, 2, 1, 1, 1, 0);
                    w.call(CallType.LIVE_JOIN, 3, 3, 0, 0, 1, 0);
                    w.call(CallType.END_TRACE, 9, 9, 0, 1, 0, 0);
                } else {
                    loads(w, 40, 0x4000);
                }
            }
            files.add(f);
        }
        TraceSet set = TraceSet.of(dir.resolve("cut.2").toString(), files);
        Prescan pre = new Prescan(2, new ReplayOptions(), new Problems());
        Recorder live = new Recorder();
        Replay r = Replay.live(set, source(thread -> file(set, thread), 1, pre), new ReplayOptions()).add(live);
        r.run();
        assertEquals(1, r.problems().size(), String.valueOf(r.problems()));
        assertTrue(r.problems().get(0).contains("began a join of thread 1 that did not return"), r.problems().get(0));
        assertEquals(40, live.accesses.size(), "worker 1's records replayed");
        assertTrue(live.calls.stream().anyMatch(c -> c.startsWith("0 0 ") && c.contains("end_trace")),
                "main's end_trace replayed: " + live.calls);
        assertTrue(live.calls.stream().noneMatch(c -> c.contains("live_join") || c.contains(" join ")),
                "no join delivered: " + live.calls);
    }
}
