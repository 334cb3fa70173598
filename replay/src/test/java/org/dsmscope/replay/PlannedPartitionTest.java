package org.dsmscope.replay;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.nio.file.Path;
import java.util.List;
import org.dsmscope.replay.gen.ForkJoinGen;
import org.dsmscope.replay.gen.ProcessGen;
import org.dsmscope.trace.BadInputException;
import org.dsmscope.trace.TraceSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * SPEC §4 partitioning across processes: a {@link Replay.Plan} made by one replay, serialized and read back (as a
 * Spark task gets it), runs partition k alone ({@link Replay#runPartition}) with exactly what partition k of
 * {@link Replay#runInPartitions} sees.
 */
class PlannedPartitionTest {
    @TempDir
    Path dir;

    static Replay.Plan roundTrip(Replay.Plan plan) throws Exception {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
            out.writeObject(plan);
        }
        try (ObjectInputStream in = new ObjectInputStream(new ByteArrayInputStream(bytes.toByteArray()))) {
            return (Replay.Plan) in.readObject();
        }
    }

    private static void samePartitions(TraceSet set, ReplayOptions o, int parts) throws Exception {
        List<PartitionedReplayTest.Owned> together = Replay.runPartitioned(set, null, o, parts,
                k -> new PartitionedReplayTest.Owned());
        Replay.Plan plan = roundTrip(new Replay(set, null, o).plan(parts));
        assertEquals(parts, plan.parts());
        for (int k = 0; k < parts; k++) {
            PartitionedReplayTest.Owned alone = new Replay(set, null, o).runPartition(plan, k,
                    new PartitionedReplayTest.Owned());
            assertEquals(together.get(k).mine, alone.mine, "partition " + k);
            assertEquals(together.get(k).phases, alone.phases, "partition " + k);
            assertEquals(together.get(k).ctx.workProfile().threadAccesses(0),
                    alone.ctx.workProfile().threadAccesses(0));
        }
        assertTrue(together.get(1).mine.size() > 0, "a partition that owns pages");
    }

    @Test
    void aThreadTraceSetsPartitionRunAloneFromASerializedPlan_seesWhatItSeesAmongTheOthers() throws Exception {
        ForkJoinGen.Params p = new ForkJoinGen.Params();
        p.threads = 4;
        p.instructions = 4000;
        p.lockRate = 0.02;
        samePartitions(ForkJoinGen.write(dir, "fj", p), new ReplayOptions(), 3);
    }

    @Test
    void aProcessTraceSetWithIsPartitionRunAlone_seesWhatItSeesAmongTheOthers() throws Exception {
        ProcessGen.Params g = new ProcessGen.Params();
        g.processes = 4;
        g.slices = 6;
        g.sliceInstructions = 200;
        ReplayOptions o = new ReplayOptions();
        o.interleave = 2;
        o.handleIo = true;
        samePartitions(ProcessGen.write(dir, "ps", g), o, 2);
    }

    @Test
    void aPlanForAnotherTraceSet_orAPartitionOutOfRange_isRefused() throws Exception {
        ForkJoinGen.Params p = new ForkJoinGen.Params();
        p.instructions = 100;
        p.threads = 2;
        TraceSet two = ForkJoinGen.write(dir, "a", p);
        p.threads = 3;
        TraceSet three = ForkJoinGen.write(dir, "b", p);
        Replay.Plan plan = new Replay(two, null, new ReplayOptions()).plan(2);
        assertThrows(BadInputException.class, () -> new Replay(three, null, new ReplayOptions()).runPartition(plan,
                0, new PartitionedReplayTest.Owned()));
        assertThrows(IllegalArgumentException.class, () -> new Replay(two, null, new ReplayOptions())
                .runPartition(plan, 2, new PartitionedReplayTest.Owned()));
    }
}
