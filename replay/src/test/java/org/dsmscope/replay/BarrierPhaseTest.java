package org.dsmscope.replay;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.util.List;
import org.dsmscope.trace.TraceSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Barriers synchronize clocks inside a phase; they never start a phase of their own (seed 000 §3). */
class BarrierPhaseTest {
    @TempDir
    Path dir;

    @Test
    void repeatedBarriersInAParallelPhase_leaveOneParallelPhase() {
        TraceSet set = TestTraces.write(dir, "bp",
                w -> w.spawn(2).loads(3, 0x100).barrier(0x1000, 2).loads(5, 0x100).barrier(0x1000, 2)
                        .loads(1, 0x100).join(),
                w -> w.loads(6, 0x200).barrier(0x1000, 2).loads(1, 0x200).barrier(0x1000, 2).loads(2, 0x200));
        Recorder r = TestTraces.replay(set);
        // one parallel phase holds both barriers (then the join's serial phase)
        assertEquals(List.of("parallel 0-13"), r.phases.stream().filter(p -> p.startsWith("parallel")).toList());
        assertEquals(1, r.phases.stream().filter(p -> p.startsWith("parallel")).count());
        long[][] t = r.phaseTimes.get(r.phases.indexOf("parallel 0-13"));
        // thread 0 waits 3 at the first barrier (arrives at 3, thread 1 at 6), 0 at the second (11 vs 7) and 1 at
        // the join (12 vs 13)
        assertEquals(4, t[2][0], "imbalance of thread 0");
        assertEquals(4, t[2][1], "imbalance of thread 1 (second barrier 4, none at the first)");
    }
}
