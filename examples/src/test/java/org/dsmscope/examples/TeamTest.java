package org.dsmscope.examples;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(value = 30, unit = TimeUnit.SECONDS)
class TeamTest {

    @Test
    void memberZero_isTheCallingThread_andOthersAreNamedAndJoined() {
        String[] names = new String[3];
        Thread caller = Thread.currentThread();
        Team.run("t", 3, id -> names[id] = Thread.currentThread() == caller ? "caller"
                : Thread.currentThread().getName());
        assertArrayEquals(new String[] {"caller", "t-1", "t-2"}, names);
    }

    @Test
    void blocks_coverTheRangeWithoutGaps_evenWithMoreMembersThanItems() {
        int n = 3;
        int p = 5;
        int covered = 0;
        for (int id = 0; id < p; id++) {
            assertEquals(covered, Team.lo(id, p, n));
            covered = Team.hi(id, p, n);
        }
        assertEquals(n, covered);
    }

    @Test
    void failingMember_isRethrown_andMembersWaitingAtABarrierDoNotHang() {
        CyclicBarrier barrier = new CyclicBarrier(4);
        RuntimeException boom = new RuntimeException("boom");
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> Team.run("t", 4, id -> {
            if (id == 2) {
                throw boom;
            }
            barrier.await();
        }));
        assertSame(boom, e.getCause());
        assertTrue(e.getMessage().startsWith("thread 2 of 4 failed"), e.getMessage());
        assertFalse(Thread.currentThread().isInterrupted());
    }

    @Test
    void failingCaller_interruptsMembersBlockedInAMonitorWait() {
        Object lock = new Object();
        assertThrows(IllegalStateException.class, () -> Team.run("t", 3, id -> {
            if (id == 0) {
                throw new IllegalArgumentException("caller fails");
            }
            synchronized (lock) {
                while (true) {
                    lock.wait();
                }
            }
        }));
        assertFalse(Thread.currentThread().isInterrupted());
    }
}
