package org.dsmscope.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

class WorkQueueTest {

    @Test
    void collatzSteps_matchKnownStoppingTimes() {
        assertEquals(0, WorkQueue.collatzSteps(1));
        assertEquals(7, WorkQueue.collatzSteps(3));
        assertEquals(111, WorkQueue.collatzSteps(27));
        assertEquals(19, WorkQueue.collatzSteps(9));
    }

    @Test
    void tenItems_checkValueIsTheSumOfStoppingTimesOf1To10() {
        // 0 + 1 + 7 + 2 + 5 + 8 + 16 + 3 + 19 + 6
        Result r = WorkQueue.run(3, 10);
        assertTrue(r.ok(), r.detail());
        assertEquals("67", r.check());
        assertEquals("tasks=1", r.detail());
    }

    @Test
    void taskCount_countsEveryNodeOfTheSplitTree() {
        assertEquals(1, WorkQueue.taskCount(WorkQueue.GRAIN));
        assertEquals(3, WorkQueue.taskCount(WorkQueue.GRAIN + 1));
        assertEquals(2 * 64 - 1, WorkQueue.taskCount(64 * WorkQueue.GRAIN));
    }

    @Test
    void squareSum_matchesTheLoop() {
        long s = 0;
        for (long i = 0; i < 1000; i++) {
            s += i * i;
        }
        assertEquals(s, WorkQueue.squareSum(1000));
    }

    @Property(tries = 25)
    void checkValue_equalsTheSerialSum_forAnySizeAndThreadCount(@ForAll @IntRange(min = 1, max = 3000) int n,
                                                                @ForAll @IntRange(min = 1, max = 8) int threads) {
        long expected = 0;
        for (int i = 1; i <= n; i++) {
            expected += WorkQueue.collatzSteps(i);
        }
        Result r = WorkQueue.run(threads, n);
        assertTrue(r.ok(), r.detail());
        assertEquals(Long.toString(expected), r.check());
    }
}
