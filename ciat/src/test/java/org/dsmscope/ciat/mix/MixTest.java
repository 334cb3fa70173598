package org.dsmscope.ciat.mix;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.dsmscope.ciat.CiatResult;
import org.dsmscope.ciat.FakeReplay;
import org.dsmscope.replay.Phase;
import org.dsmscope.trace.CallType;
import org.dsmscope.trace.MemType;
import org.dsmscope.trace.RecordKind;
import org.junit.jupiter.api.Test;

/** Instruction mix, strings, instruction stream and calls (seed 000 §4.1&ndash;4.3). */
class MixTest {

    @Test
    void seedTypeFields_classifyAsLoadWordAndStoreDoubleFloat() {
        assertEquals("word", MixStats.CLASS_NAMES[MixStats.classify(0x040, 4)]);
        assertEquals("double-float", MixStats.CLASS_NAMES[MixStats.classify(0x181, 8)]);
        assertEquals("double-word-fixed", MixStats.CLASS_NAMES[MixStats.classify(0x081, 8)]);
        assertEquals("zero-byte", MixStats.CLASS_NAMES[MixStats.classify(0x001, 0)]);
        assertEquals("three-byte", MixStats.CLASS_NAMES[MixStats.classify(0x031, 3)]);
        assertEquals("vector", MixStats.CLASS_NAMES[MixStats.classify(MemType.encode(0, 16, 2), 16)]);
        assertEquals("float", MixStats.CLASS_NAMES[MixStats.classify(0x140, 4)]);
    }

    @Test
    void loadAndStoreStrings_areRunsPerThreadNotInterruptedByTheOtherKind() {
        FakeReplay r = FakeReplay.of(2).start(Phase.Kind.PARALLEL);
        r.load(0, 0, 4).load(0, 4, 4).load(1, 8, 4).load(0, 8, 4).store(0, 0, 4).store(0, 4, 4).load(0, 0, 4);
        MixStats m = r.finish().aggregate.mix;
        assertEquals(1, m.loadStrings[3], "thread 0: three loads, the interleaved thread-1 load does not break it");
        assertEquals(2, m.loadStrings[1], "thread 1's single load and thread 0's last load");
        assertEquals(1, m.storeStrings[2]);
    }

    @Test
    void instructionStream_countsFetchesBranchesCallsAndInstrumentedCalls() {
        FakeReplay r = FakeReplay.of(1).start(Phase.Kind.SERIAL);
        r.fetch(0, 0x4c00, 4).fetch(0, 0x4c04, 4);
        r.branch(0, RecordKind.BRANCH, 0x4c18, 0x4d20);
        r.branch(0, RecordKind.PROC_CALL, 0x542c, 0x5630);
        r.branch(0, RecordKind.PROC_START, 0, 0x5630);
        r.branch(0, RecordKind.PROC_CALL, 0x5640, 0x9000); // an uninstrumented procedure: no start follows
        r.branch(0, RecordKind.BRANCH, 0x5650, 0x5660);
        MixStats m = r.finish().aggregate.mix;
        assertEquals(2, m.totalFetched());
        assertEquals(2, m.takenBranches);
        assertEquals(2, m.procedureCalls);
        assertEquals(1, m.instrumentedCalls);
    }

    @Test
    void calls_countTimeAndBytesPerType() {
        FakeReplay r = FakeReplay.of(1).start(Phase.Kind.SERIAL);
        r.call(0, CallType.FILE_READ, 100, 150, 0x8000, 4096);
        r.call(0, CallType.FILE_READ, 200, 210, 0x8000, 512);
        r.call(0, CallType.BEGIN_CRITICAL, 300, 301, 0x9000, 0);
        CiatResult res = r.finish();
        MixStats m = res.aggregate.mix;
        assertEquals(2, m.callCount[CallType.FILE_READ]);
        assertEquals(60, m.callTime[CallType.FILE_READ]);
        assertEquals(4608, m.callBytes[CallType.FILE_READ]);
        assertEquals(1, m.callCount[CallType.BEGIN_CRITICAL]);
        assertEquals(0, m.callBytes[CallType.BEGIN_CRITICAL]);
    }

    @Test
    void phases_holdTheirOwnCounts_aggregateSumsThem() {
        FakeReplay r = FakeReplay.of(2).start(Phase.Kind.SERIAL);
        r.load(0, 0, 4);
        r.phase(Phase.Kind.PARALLEL).store(0, 0, 8).store(1, 8, 8);
        r.phase(Phase.Kind.SERIAL).load(0, 8, 8);
        CiatResult res = r.finish();
        assertEquals(3, res.phases.size());
        assertEquals(1, res.phases.get(0).mix.totalLoads(-1));
        assertEquals(2, res.phases.get(1).mix.totalStores(-1));
        assertEquals(2, res.aggregate.mix.totalLoads(-1));
        assertEquals(2, res.aggregate.mix.totalStores(-1));
        assertEquals(4 + 8 + 8 + 8, res.aggregate.mix.bytesAccessed);
    }

    @Test
    void callReplayedBetweenPhases_countsInTheNextPhase() {
        FakeReplay r = FakeReplay.of(2).start(Phase.Kind.SERIAL);
        r.load(0, 0, 4).endPhase(null);
        r.call(0, CallType.SPAWN, 10, 11, 1, 1);
        r.phase(Phase.Kind.PARALLEL).load(1, 0, 4);
        CiatResult res = r.finish();
        assertEquals(2, res.phases.size());
        assertEquals(0, res.phases.get(0).mix.callCount[CallType.SPAWN]);
        assertEquals(1, res.phases.get(1).mix.callCount[CallType.SPAWN]);
        assertEquals(1, res.aggregate.mix.callCount[CallType.SPAWN]);
    }

    @Test
    void callAfterTheLastPhase_countsInTheLastPhase() {
        FakeReplay r = FakeReplay.of(1).start(Phase.Kind.SERIAL);
        r.load(0, 0, 4).endPhase(null);
        r.call(0, CallType.END_TRACE, 10, 11, 0, 0);
        CiatResult res = r.finish();
        assertEquals(1, res.phases.size());
        assertEquals(1, res.phases.get(0).mix.callCount[CallType.END_TRACE]);
    }
}
