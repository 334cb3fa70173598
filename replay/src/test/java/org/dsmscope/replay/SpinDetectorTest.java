package org.dsmscope.replay;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The spin rule ({@link SpinDetector}, ciat/README.md "Spin time") on hand-built record sequences in replay order,
 * one clock per access as at level 2: what is a spin, its exact interval, and what is not.
 */
class SpinDetectorTest {
    private static final long FLAG = 0x9000;
    private static final long OTHER = 0x9100;

    /** Feeds a detector the way the replay would, each thread's clock +1 per access; records the spins. */
    private static final class Driver implements SpinDetector.Sink {
        final SpinDetector d;
        final long[] clock;
        final List<String> spins = new ArrayList<>();

        Driver(int threads) {
            d = new SpinDetector(threads, this);
            clock = new long[threads];
        }

        @Override
        public void loop(int thread, long from, long to, int state) {
            if (state == SpinDetector.SPIN || state == SpinDetector.LOCK_SPIN) {
                spins.add(thread + ":" + from + "-" + to + (state == SpinDetector.LOCK_SPIN ? " lock" : ""));
            }
        }

        Driver loads(int t, int n, long address) {
            for (int i = 0; i < n; i++) {
                d.access(t, clock[t]++, 4, false, address);
            }
            return this;
        }

        /** {@code n} loads of distinct words from {@code address} on (work over an array). */
        Driver work(int t, int n, long address) {
            for (int i = 0; i < n; i++) {
                d.access(t, clock[t]++, 4, false, address + 4L * i);
            }
            return this;
        }

        Driver store(int t, long address) {
            d.access(t, clock[t]++, 4, true, address);
            return this;
        }

        Driver call(int t) {
            d.call(t);
            return this;
        }

        String result() {
            d.end();
            return String.join(" ", spins);
        }
    }

    @Test
    void loopEndedByAnotherThreadsStore_isSpinFromItsFirstToItsLastLoad() {
        Driver r = new Driver(2);
        r.work(1, 3, 0x1000);          // clocks 0..2: work
        r.loads(1, 20, FLAG);          // clocks 3..22: the spin
        r.work(0, 10, 0x2000);
        r.store(0, FLAG);              // the other thread's store ends it
        r.loads(1, 1, FLAG);           // clock 23: the read that sees the change is the loop's last
        r.work(1, 2, 0x1100);          // the loop is over
        assertEquals("1:3-24", r.result());
    }

    @Test
    void loopThatNoOtherThreadStoresTo_isBusy() {
        Driver r = new Driver(2);
        r.loads(1, 50, FLAG);
        r.store(0, OTHER);
        r.work(1, 2, 0x1100);
        assertEquals("", r.result());
    }

    @Test
    void loopOverMoreThanFourLocations_isNotSpin() {
        Driver r = new Driver(2);
        for (int i = 0; i < 20; i++) {
            r.work(1, 5, FLAG);        // FLAG .. FLAG+16 over and over
        }
        r.store(0, FLAG);
        r.work(1, 2, 0x1100);
        assertEquals("", r.result());
    }

    @Test
    void loopOverTwoLocations_isOneSpinStartingAtTheFirstReRead() {
        Driver r = new Driver(2);
        r.loads(1, 1, 0x5000);         // clock 0: read once before the loop
        for (int i = 0; i < 10; i++) { // clocks 1..20: a barrier's reference, then its sense
            r.loads(1, 1, OTHER).loads(1, 1, FLAG);
        }
        r.store(0, FLAG);
        r.work(1, 1, 0x1100);
        assertEquals("1:1-21", r.result());
    }

    @Test
    void loopAfterMoreDistinctLoadsThanAreKept_startsAtTheFirstLoadOfTheLocationReReadFirst() {
        Driver r = new Driver(2);
        r.work(1, 6, 0x1000);          // clocks 0..5: six words, of which the last four are kept (0x1008..0x1014)
        for (int i = 0; i < 6; i++) {  // clocks 6..17: 0x1010 (first read at clock 4) and 0x1014 again and again
            r.loads(1, 1, 0x1010).loads(1, 1, 0x1014);
        }
        r.store(0, 0x1010);
        r.loads(1, 1, 0x1014);         // clock 18: the loop's last load
        r.work(1, 2, 0x1100);
        assertEquals("1:4-19", r.result());
    }

    @Test
    void ownStoresBetweenTheLoads_splitTheLoopIntoRunsTooShortToBeSpin() {
        Driver r = new Driver(2);
        for (int i = 0; i < 10; i++) {
            r.loads(1, 4, FLAG).store(1, OTHER);
        }
        r.store(0, FLAG);
        r.work(1, 2, 0x1100);
        assertEquals("", r.result());
    }

    @Test
    void fourReReadsPerLocationAreNeeded() {
        Driver r = new Driver(2);
        r.loads(1, 4, FLAG).store(0, FLAG).work(1, 1, 0x1100).call(1);
        assertEquals("", r.result());
        Driver s = new Driver(2);
        s.loads(1, 5, FLAG).store(0, FLAG).work(1, 1, 0x1100).call(1);
        assertEquals("1:0-5", s.result());
    }

    @Test
    void storeAfterTheLoop_confirmsIt_untilThePhaseEnd() {
        Driver r = new Driver(2);
        r.loads(1, 10, FLAG).work(1, 5, 0x1100).call(1);  // the spinner's clock ran ahead of the store's
        r.loads(1, 7, FLAG).work(1, 5, 0x1100).call(1);   // and spun once more on the same flag
        r.store(0, FLAG);
        assertEquals("1:0-10 1:15-22", r.result());
        Driver late = new Driver(2);
        late.loads(1, 10, FLAG).work(1, 5, 0x1100).call(1);
        late.d.phaseEnd();
        late.store(0, FLAG);
        assertEquals("", late.result());
    }

    @Test
    void loopOnOtherLocations_endsTheWaitOfTheLoopsBefore() {
        Driver r = new Driver(2);
        r.loads(1, 10, FLAG).loads(1, 10, OTHER).work(1, 1, 0x1100);
        r.store(0, FLAG);
        assertEquals("", r.result());
    }

    @Test
    void storesEarlierInThePhase_confirmTheLoopsOnTheirLocation() {
        Driver r = new Driver(2);
        r.loads(1, 10, FLAG).store(0, FLAG).work(1, 3, 0x1100).call(1);  // first episode, clocks 0..9
        r.store(0, FLAG).store(0, FLAG);                                 // two more releases, early in clocks
        r.work(1, 3, 0x1100).loads(1, 8, FLAG).work(1, 1, 0x1200);        // clocks 16..23
        r.loads(1, 6, FLAG).work(1, 1, 0x1200);                          // clocks 25..30
        r.loads(1, 6, FLAG).work(1, 1, 0x1200);                          // clocks 32..37
        assertEquals("1:0-10 1:16-24 1:25-31 1:32-38", r.result());
    }

    @Test
    void firstLoopOfAThreadBehindInClocks_isConfirmedByAStoreEarlierInThePhase() {
        Driver r = new Driver(3);
        r.loads(0, 10, FLAG);           // thread 0 spins on the flag (so the flag is watched)
        r.store(2, FLAG);               // thread 2 releases the barrier
        r.work(0, 1, 0x1100);
        r.work(1, 30, 0x2000).loads(1, 6, FLAG).work(1, 1, 0x2100);  // thread 1's clock was behind: clocks 30..35
        assertEquals("0:0-10 1:30-36", r.result());
        Driver own = new Driver(3);
        own.loads(0, 10, FLAG).store(1, FLAG).work(0, 1, 0x1100);
        own.loads(1, 6, FLAG).work(1, 1, 0x2100);  // only its own store came before: no spin of thread 1
        assertEquals("0:0-10", own.result());
    }

    @Test
    void loopEndedByTheThreadsOwnStoreToTheWord_isALockSpin() {
        Driver r = new Driver(2);
        r.loads(1, 12, FLAG);
        r.store(0, FLAG);              // the holder releases the lock word
        r.loads(1, 1, FLAG).store(1, FLAG);  // test, then set: the spinner takes it
        assertEquals("1:0-13 lock", r.result());
    }

    @Test
    void bookedTimes_moveOutOfBusy_intoSpinOrIntoImbalanceAndContention() {
        Driver r = new Driver(2);
        r.loads(0, 6, FLAG).store(1, FLAG).loads(0, 1, FLAG).work(0, 1, 0x1100);  // 7 clocks, waiting
        r.loads(1, 10, OTHER).store(0, OTHER).loads(1, 1, OTHER).store(1, OTHER);  // 11 clocks, a lock
        r.d.phaseEnd();
        PhaseTimes phase = busy(100, 100);
        r.d.book(phase, true, false);
        assertEquals(93, phase.busy[0]);
        assertEquals(7, phase.spin[0]);
        assertEquals(89, phase.busy[1]);
        assertEquals(11, phase.spin[1]);
        PhaseTimes total = busy(100, 100);
        r.d.book(total, false, true);  // --spin-as-wait: the run's total books the same spins as waits
        assertEquals(93, total.busy[0]);
        assertEquals(7, total.imbalance[0]);
        assertEquals(89, total.busy[1]);
        assertEquals(11, total.contention[1]);
        assertEquals(0, total.spin[0] + total.spin[1]);
        PhaseTimes next = busy(100, 100);
        r.d.book(next, true, false);   // a phase's spins are booked once
        assertEquals(100, next.busy[0]);
    }

    private static PhaseTimes busy(long... b) {
        PhaseTimes t = new PhaseTimes(b.length);
        System.arraycopy(b, 0, t.busy, 0, b.length);
        return t;
    }
}
