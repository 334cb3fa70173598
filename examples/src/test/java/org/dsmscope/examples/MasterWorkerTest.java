package org.dsmscope.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(value = 60, unit = TimeUnit.SECONDS)
class MasterWorkerTest {

    @Test
    void noTasks_theWorkersAreStoppedAndTheCheckIsZero() {
        Result r = MasterWorker.run(4, 0);
        assertTrue(r.ok(), r.detail());
        assertEquals("0", r.check());
    }

    @Test
    void oneTask_checkIsThatTasksSum() {
        Prng rng = new Prng(0x4D575354L);
        long s = 0;
        for (int j = 0; j < MasterWorker.CHUNK; j++) {
            s += Prng.mix(rng.nextLong());
        }
        Result r = MasterWorker.run(3, 1);
        assertTrue(r.ok(), r.detail());
        assertEquals(Long.toHexString(s), r.check());
        assertEquals("tasks=1", r.detail());
    }

    @Test
    void fewerTasksThanWorkers_andARoundThatDoesNotFillEveryWorker_passTheSelfCheck() {
        assertEquals(MasterWorker.run(1, 7).check(), MasterWorker.run(8, 7).check());
        assertTrue(MasterWorker.run(3, 7).ok());
    }
}
