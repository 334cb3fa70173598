package org.dsmscope.replay.gen;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.dsmscope.replay.Analysis;
import org.dsmscope.replay.CallEvent;
import org.dsmscope.replay.Phase;
import org.dsmscope.replay.PhaseTimes;
import org.dsmscope.replay.Replay;
import org.dsmscope.replay.ReplayContext;
import org.dsmscope.replay.ReplayOptions;
import org.dsmscope.trace.BadInputException;
import org.dsmscope.trace.CallType;
import org.dsmscope.trace.TraceSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The generators: deterministic, documented shape, and replayable. */
class GenTest {
    @TempDir
    Path dir;

    /** Counts what a replay delivers and hashes the callback sequence. */
    static final class Counter implements Analysis {
        long loads;
        long stores;
        long shared;
        long sync;
        long fetches;
        long hash = 17;
        final List<String> phases = new ArrayList<>();
        final long[] callTypes = new long[256];
        ReplayContext ctx;

        @Override
        public void begin(ReplayContext c) {
            ctx = c;
        }

        @Override
        public void access(int thread, int cpu, long clock, int memType, int size, boolean store, long address) {
            if (store) {
                stores++;
            } else {
                loads++;
            }
            if (address >= ForkJoinGen.SHARED && address < ForkJoinGen.PRIVATE) {
                shared++;
            }
            if (ctx.isSyncVariable(address)) {
                sync++;
            }
            hash = hash * 31 + (thread * 7919L + cpu) * 104729 + clock * 13 + address;
        }

        @Override
        public void fetch(int thread, int cpu, long clock, long address, int size) {
            fetches++;
            hash = hash * 31 + clock + address;
        }

        @Override
        public void call(int thread, int cpu, long clock, CallEvent call) {
            callTypes[call.type]++;
            hash = hash * 31 + call.type + clock * 3 + call.waitClocks;
        }

        @Override
        public void phaseEnd(Phase phase, PhaseTimes times) {
            phases.add(phase.kind().label());
        }
    }

    @Test
    void forkJoin_hasSerialParallelSerialPhasesAndTheRequestedMix() {
        ForkJoinGen.Params p = new ForkJoinGen.Params();
        p.threads = 4;
        p.instructions = 20_000;
        p.sharedFraction = 0.3;
        p.lockRate = 0.01;
        p.barriers = 3;
        TraceSet set = ForkJoinGen.write(dir, "fj", p);
        Counter c = new Counter();
        new Replay(set, null, new ReplayOptions()).add(c).run();
        assertEquals(List.of("serial", "parallel", "serial"), c.phases);
        assertEquals(3 * 4, c.callTypes[CallType.BARRIER]);
        assertEquals(c.callTypes[CallType.BEGIN_CRITICAL], c.callTypes[CallType.END_CRITICAL]);
        long cs = c.callTypes[CallType.BEGIN_CRITICAL];
        assertTrue(cs > 4 * 20_000 * 0.005 && cs < 4 * 20_000 * 0.02, "about 1% of accesses lock: " + cs);
        long parallelAccesses = 4 * 20_000 + cs;
        double sharedShare = (c.shared - 2000 - 1000) / (double) (parallelAccesses - 2 * cs);
        assertTrue(Math.abs(sharedShare - 0.3) < 0.02, "shared fraction " + sharedShare);
        assertEquals(0, c.sync, "locks and barrier words are never accessed as data");
    }

    @Test
    void forkJoin_sameSeedSameBytes_otherSeedOtherBytes() throws IOException {
        ForkJoinGen.Params p = new ForkJoinGen.Params();
        p.instructions = 5000;
        TraceSet a = ForkJoinGen.write(dir, "a", p);
        TraceSet b = ForkJoinGen.write(dir, "b", p);
        p.seed = 2;
        TraceSet c = ForkJoinGen.write(dir, "c", p);
        for (int t = 0; t < 4; t++) {
            assertArrayEquals(Files.readAllBytes(a.files().get(t)), Files.readAllBytes(b.files().get(t)));
        }
        assertTrue(!java.util.Arrays.equals(Files.readAllBytes(a.files().get(1)),
                Files.readAllBytes(c.files().get(1))));
    }

    @Test
    void sixteenThreads_sameInputSameCallbackSequence() {
        ForkJoinGen.Params p = new ForkJoinGen.Params();
        p.threads = 16;
        p.instructions = 3000;
        p.lockRate = 0.02;
        p.branches = true;
        TraceSet set = ForkJoinGen.write(dir, "det", p);
        Counter x = new Counter();
        Counter y = new Counter();
        new Replay(set, null, new ReplayOptions()).add(x).run();
        new Replay(set, null, new ReplayOptions()).add(y).run();
        assertEquals(x.hash, y.hash);
        assertTrue(x.fetches > x.loads + x.stores, "branch records rebuild more instructions than accesses");
    }

    @Test
    void processes_replayOnFewerProcessorsWithEveryOption() {
        ProcessGen.Params p = new ProcessGen.Params();
        p.processes = 6;
        p.slices = 20;
        p.sliceInstructions = 300;
        p.readRate = 0.3;
        TraceSet set = ProcessGen.write(dir, "tpc", p);
        long expected = -1;
        for (int variant = 0; variant < 5; variant++) {
            ReplayOptions o = new ReplayOptions();
            o.interleave = 2;
            o.affinity = variant == 1;
            o.rrInterleaving = variant == 2;
            o.handleIo = variant >= 3;
            o.distributedIo = variant == 4;
            Counter c = new Counter();
            Replay rp = new Replay(set, null, o).add(c);
            rp.run();
            long accesses = c.loads + c.stores;
            if (expected < 0) {
                expected = accesses;
            }
            assertEquals(expected, accesses, "every variant replays every access");
            assertTrue(c.callTypes[CallType.FILE_READ] > 0);
        }
    }

    @Test
    void badParameters_areRefused() {
        ForkJoinGen.Params p = new ForkJoinGen.Params();
        p.sharedFraction = 1.5;
        BadInputException e = assertThrows(BadInputException.class, () -> ForkJoinGen.write(dir, "x", p));
        assertTrue(e.getMessage().contains("shared fraction 1.5"), e.getMessage());
    }

    @Test
    void threadCount_isBoundedByThePrivateRegionsThatFitThirtyTwoBitAddresses() {
        assertEquals(224, ForkJoinGen.MAX_REGIONS);
        ForkJoinGen.Params ok = new ForkJoinGen.Params();
        ok.threads = 224;
        ok.instructions = 2;
        ok.validate();
        ForkJoinGen.Params p = new ForkJoinGen.Params();
        p.threads = 225;
        BadInputException e = assertThrows(BadInputException.class, () -> ForkJoinGen.write(dir, "x", p));
        assertTrue(e.getMessage().contains("threads 225") && e.getMessage().contains("1..224"), e.getMessage());
        ProcessGen.Params q = new ProcessGen.Params();
        q.processes = 225;
        BadInputException f = assertThrows(BadInputException.class, () -> ProcessGen.write(dir, "y", q));
        assertTrue(f.getMessage().contains("1..224"), f.getMessage());
    }
}
