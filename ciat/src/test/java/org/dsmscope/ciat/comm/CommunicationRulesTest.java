package org.dsmscope.ciat.comm;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.StringWriter;
import org.dsmscope.ciat.CiatResult;
import org.dsmscope.ciat.FakeReplay;
import org.dsmscope.ciat.report.EventTrace;
import org.dsmscope.replay.Phase;
import org.junit.jupiter.api.Test;

/** Each rule of SPEC §5's communication definition, one test each (seed 000 §4.4, seed 001 §5.4, §5.6). */
class CommunicationRulesTest {
    private static final long A = 0x1000;

    private static CommStats run(int threads, java.util.function.Consumer<FakeReplay> body) {
        FakeReplay r = FakeReplay.of(threads).start(Phase.Kind.PARALLEL);
        body.accept(r);
        CiatResult res = r.finish();
        return res.aggregate.comm;
    }

    @Test
    void loadAfterAnotherProcessorsStore_isRaw() {
        CommStats c = run(2, r -> r.store(0, A, 4).load(1, A, 4));
        assertEquals(1, c.raw);
        assertEquals(0, c.war + c.waw + c.rar);
        assertEquals(1, c.matrix(0, 1));
    }

    @Test
    void loadByTheWriterItself_isNoEvent() {
        CommStats c = run(2, r -> r.store(0, A, 4).load(0, A, 4));
        assertEquals(0, c.events());
    }

    @Test
    void repeatedLoadsBySameReader_countOneRaw() {
        CommStats c = run(2, r -> r.store(0, A, 4).load(1, A, 4).load(1, A, 4).load(1, A + 2, 2));
        assertEquals(1, c.raw);
    }

    @Test
    void twoReadersAfterStore_areTwoRaws() {
        CommStats c = run(3, r -> r.store(0, A, 4).load(1, A, 4).load(2, A, 4));
        assertEquals(2, c.raw);
        assertEquals(1, c.matrix(0, 1));
        assertEquals(1, c.matrix(0, 2));
    }

    @Test
    void firstReaderOfNeverStoredLocation_isNoEvent() {
        CommStats c = run(2, r -> r.load(0, A, 4));
        assertEquals(0, c.events());
    }

    @Test
    void secondReaderOfNeverStoredLocation_isRar() {
        CommStats c = run(3, r -> r.load(0, A, 4).load(1, A, 4).load(2, A, 4).load(1, A, 4));
        assertEquals(2, c.rar);
        assertEquals(0, c.raw);
    }

    @Test
    void storeAfterTwoReaders_isWarOfDegreeTwo() {
        CommStats c = run(3, r -> r.store(0, A, 4).load(1, A, 4).load(2, A, 4).store(0, A, 4));
        assertEquals(1, c.war);
        assertEquals(1, c.invalidation[2]);
        assertEquals(0, c.waw);
        // RAW (0,1) and (0,2) from the loads, then the WAR adds (0,1) and (0,2) once each.
        assertEquals(2, c.matrix(0, 1));
        assertEquals(2, c.matrix(0, 2));
    }

    @Test
    void storeByOneOfTheReaders_invalidatesOnlyTheOthers() {
        CommStats c = run(3, r -> r.store(0, A, 4).load(1, A, 4).load(2, A, 4).store(1, A, 4));
        assertEquals(1, c.war);
        assertEquals(1, c.invalidation[1]);
        assertEquals(1, c.matrix(1, 2));
        assertEquals(0, c.matrix(1, 0));
    }

    @Test
    void storeAfterOnlyOwnLoad_isNoEvent() {
        CommStats c = run(2, r -> r.load(1, A, 4).store(1, A, 4));
        assertEquals(0, c.events());
    }

    @Test
    void storeAfterAnotherWritersStoreWithoutReads_isWaw() {
        CommStats c = run(2, r -> r.store(0, A, 4).store(1, A, 4));
        assertEquals(1, c.waw);
        assertEquals(1, c.matrix(0, 1));
    }

    @Test
    void storeByTheSameWriterAgain_isNoEvent() {
        CommStats c = run(2, r -> r.store(0, A, 4).store(0, A, 4));
        assertEquals(0, c.events());
    }

    @Test
    void storeAfterWriterReadByOthers_isWarNotWaw() {
        CommStats c = run(2, r -> r.store(0, A, 4).load(1, A, 4).store(1, A, 4).store(0, A, 4));
        // store(1): R = {1}, L = {} and W = 0 ≠ 1 -> WAW; store(0): R = {}, W = 1 -> WAW.
        assertEquals(2, c.waw);
        assertEquals(0, c.war);
    }

    @Test
    void storeOverBytesSomeReadSomeOverwritten_isWar() {
        // bytes A..A+1 read by 1 after 0 stored them; bytes A+2..A+3 stored by 2: a word store by 0 is WAR (any
        // byte WAR wins over WAW).
        CommStats c = run(3, r -> r.store(0, A, 2).load(1, A, 2).store(2, A + 2, 2).store(0, A, 4));
        assertEquals(1, c.war);
        assertEquals(0, c.waw);
        assertEquals(2, c.matrix(0, 1)); // RAW (0,1) + WAR (0,1)
    }

    @Test
    void loadWithOneRawByteAndOneRarByte_isRaw() {
        CommStats c = run(3, r -> r.store(0, A, 1).load(2, A + 1, 1).load(1, A, 2));
        assertEquals(1, c.raw);
        assertEquals(0, c.rar);
    }

    @Test
    void wordAccess_countsOnceInMatrix() {
        CommStats c = run(2, r -> r.store(0, A, 8).load(1, A, 8));
        assertEquals(1, c.matrix(0, 1));
    }

    @Test
    void sharingDegree_isCountedOnAnchorByteOnly() {
        CommStats c = run(3, r -> r.store(0, A, 4).load(1, A, 4).load(2, A + 1, 1).store(0, A, 4));
        // anchor A has R = {1}; byte A+1 has R = {1, 2} but is not an anchor.
        assertArrayEquals(new long[] {0, 1, 0, 0}, c.sharing);
    }

    @Test
    void sharingDegree_ofOpenEpochIsCountedAtEnd() {
        CommStats c = run(4, r -> r.store(0, A, 4).load(1, A, 4).load(2, A, 4).load(3, A, 4));
        assertArrayEquals(new long[] {0, 0, 0, 1, 0}, c.sharing);
    }

    @Test
    void neverStoredLocation_addsNothingToSharingDegree() {
        CommStats c = run(3, r -> r.load(0, A, 4).load(1, A, 4).load(2, A, 4));
        assertArrayEquals(new long[] {0, 0, 0, 0}, c.sharing);
    }

    @Test
    void epochWithoutOtherReaders_addsNothingToSharingDegree() {
        CommStats c = run(2, r -> r.store(0, A, 4).load(0, A, 4).store(0, A, 4));
        assertArrayEquals(new long[] {0, 0, 0}, c.sharing);
    }

    @Test
    void synchronizationVariable_isLeftOutOfCommunication() {
        FakeReplay r = FakeReplay.of(2).syncVariable(A).start(Phase.Kind.PARALLEL);
        r.store(0, A, 4).load(1, A, 4).store(0, A + 8, 4).load(1, A + 8, 4);
        CommStats c = r.finish().aggregate.comm;
        assertEquals(1, c.raw);
        assertEquals(2, c.syncExcluded);
    }

    @Test
    void communicationCountsInThePhaseOfTheAccess_stateSpansPhases() {
        FakeReplay r = FakeReplay.of(2).start(Phase.Kind.SERIAL);
        r.store(0, A, 4);
        r.phase(Phase.Kind.PARALLEL).load(1, A, 4);
        CiatResult res = r.finish();
        assertEquals(0, res.phases.get(0).comm.raw);
        assertEquals(1, res.phases.get(1).comm.raw);
        assertEquals(1, res.aggregate.comm.raw);
    }

    @Test
    void moreThan64Processors_followTheSameRules() {
        CommStats c = run(70, r -> r.store(69, A, 4).load(3, A, 4).load(66, A, 4).store(65, A, 4).store(1, A, 4));
        assertEquals(2, c.raw);
        assertEquals(1, c.war);
        assertEquals(1, c.invalidation[2]);
        assertEquals(1, c.waw);
        assertEquals(1, c.matrix(69, 66));
        assertEquals(1, c.matrix(65, 3));
        assertEquals(1, c.matrix(65, 1));
        assertEquals(1, c.sharing[2]);
    }

    @Test
    void eventTrace_writesClockTypeProcessorDegree() {
        StringWriter out = new StringWriter();
        Communication comm = new Communication(3);
        CommStats st = new CommStats(3);
        try (EventTrace ev = EventTrace.to(out)) {
            comm.access(0, 10, true, A, 4, st, ev);
            comm.access(1, 11, false, A, 4, st, ev);
            comm.access(2, 12, false, A, 4, st, ev);
            comm.access(0, 13, true, A, 4, st, ev);
            comm.access(1, 14, true, A, 4, st, ev);
        }
        assertEquals("# dsmscope-ciat-events 1\n# fields: clock type processor degree\n"
                + "11 RAW 1 0\n12 RAW 2 0\n13 WAR 0 2\n14 WAW 1 1\n", out.toString());
    }
}
