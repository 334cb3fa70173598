package org.dsmscope.replay;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import org.dsmscope.trace.MemType;
import org.dsmscope.trace.TraceSet;
import org.dsmscope.trace.sidecar.SymbolFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Seed 000 §3 instruction-stream reconstruction, with the seed's own example. */
class InstructionStreamTest {
    @TempDir
    Path dir;

    @Test
    void seedExample_procStartThreeAccessesAndBranch_fetchSixAndJumpTo4D20() {
        TraceSet set = TestTraces.write(dir, "pc", w -> {
            w.w.procStart(0x4C00);
            w.loads(3, 0x9000);
            w.w.raw(0x80004C18, 0x00004D20);
            w.w.memory(MemType.LOAD, 4, MemType.FIXED, 0x9100);
        });
        Recorder r = TestTraces.replay(set);
        assertEquals(List.of(0x4C00L, 0x4C04L, 0x4C08L, 0x4C0CL, 0x4C10L, 0x4C14L, 0x4D20L), r.fetches,
                "six instructions 4C00-4C14, then the next memory instruction at the target 4D20");
        assertEquals("serial 0-7", r.phases.get(0), "seven instructions, one clock each");
    }

    /** The seed's example with a symbol sidecar: its memory-access instructions at 4C08, 4C10, 4C14 and 4D20. */
    private TraceSet seedExampleWithSymbols(String name, int... firstOffsets) throws Exception {
        TraceSet set = TestTraces.write(dir, name, w -> {
            w.w.procStart(0x4C00);
            w.loads(3, 0x9000);
            w.w.raw(0x80004C18, 0x00004D20);
            w.w.memory(MemType.LOAD, 4, MemType.FIXED, 0x9100);
        });
        try (SymbolFile.Writer s = SymbolFile.writer(SymbolFile.pathFor(set.base()))) {
            s.method(0x4C00, 0x4D00, "C", "m", "()V", "C.java").accesses(firstOffsets);
            s.method(0x4D00, 0x4E00, "C", "n", "()V", "C.java").accesses(0x20);
        }
        return set;
    }

    /**
     * SPEC §4: with the memory-access offsets of the symbol sidecar, the fetches before each memory instruction come
     * first and the access carries its own instruction's clock; the same instructions are fetched in all.
     */
    @Test
    void symbolSidecar_placesEachAccessAtItsInstruction_exactly() throws Exception {
        TraceSet set = seedExampleWithSymbols("exact", 0x8, 0x10, 0x14);
        Recorder r = TestTraces.replay(set);
        assertEquals(List.of(0x4C00L, 0x4C04L, 0x4C08L, 0x4C0CL, 0x4C10L, 0x4C14L, 0x4D20L), r.fetches);
        assertEquals(List.of("0 0 2 L 9000", "0 0 4 L 9004", "0 0 5 L 9008", "0 0 6 L 9100"), r.accesses,
                "loads at the clocks of 4C08, 4C10, 4C14 and 4D20");
        assertEquals("serial 0-7", r.phases.get(0), "seven instructions either way");
        assertTrue(r.log.toString().contains("F 0 1 4c04\nF 0 2 4c08\nA 0 0 2 L 9000\n"), r.log.toString());

        ReplayOptions seed = new ReplayOptions();
        seed.exactStream = false;
        Recorder s = TestTraces.replay(set, seed);
        assertEquals(r.fetches, s.fetches);
        assertEquals(List.of("0 0 0 L 9000", "0 0 1 L 9004", "0 0 2 L 9008", "0 0 6 L 9100"), s.accesses,
                "as seed 000 §3: the three loads at 4C00-4C08");
    }

    /** Past the method's last known memory-access instruction the counter goes on as the seed's does. */
    @Test
    void symbolSidecar_pastTheLastKnownOffset_fallsBackToTheCounter() throws Exception {
        TraceSet set = seedExampleWithSymbols("fallback", 0x4);
        Recorder r = TestTraces.replay(set);
        assertEquals(List.of(0x4C00L, 0x4C04L, 0x4C08L, 0x4C0CL, 0x4C10L, 0x4C14L, 0x4D20L), r.fetches);
        assertEquals(List.of("0 0 1 L 9000", "0 0 2 L 9004", "0 0 3 L 9008", "0 0 6 L 9100"), r.accesses);
    }

    @Test
    void procedureCall_fetchesUpToTheCallThenJumps() {
        TraceSet set = TestTraces.write(dir, "call", w -> {
            w.w.procStart(0x5420);
            w.w.procCall(0x542C, 0x5630);
            w.loads(1, 0x9000);
        });
        Recorder r = TestTraces.replay(set);
        assertEquals(List.of(0x5420L, 0x5424L, 0x5428L, 0x5630L), r.fetches);
    }

    @Test
    void withoutProcedureStart_memoryRecordsFetchNothing() {
        TraceSet set = TestTraces.write(dir, "nopc", w -> w.loads(3, 0x9000));
        Recorder r = TestTraces.replay(set);
        assertEquals(List.of(), r.fetches);
        assertEquals("serial 0-3", r.phases.get(0));
    }

    @Test
    void gap_countsWordsUpToTheSource() {
        assertEquals(3, InstructionStream.gap(true, 0x4C0C, 0x4C18));
        assertEquals(0, InstructionStream.gap(true, 0x4C18, 0x4C18));
        assertEquals(0, InstructionStream.gap(false, 0, 0x4C18));
        assertEquals(0, InstructionStream.gap(true, 0x5000, 0x4C18), "source below the counter: resync only");
        assertEquals(0, InstructionStream.gap(true, 0, 0x4000_0000L), "absurd gap: resync only");
    }

    @Test
    void fetchExtensionRecords_countOneInstructionEach_andMemoryRecordsBelongToThem() throws Exception {
        Path f = dir.resolve("x.1.0");
        try (org.dsmscope.trace.TraceWriter w = org.dsmscope.trace.TraceWriter.create(f,
                org.dsmscope.trace.TraceWriter.Options.classic().extended(true))) {
            w.fetch(0x400000, 3);
            w.memory(MemType.LOAD, 8, MemType.FIXED, 0x9000);
            w.fetch(0x400003, 5);
        }
        Recorder r = TestTraces.replay(TraceSet.of("x.1", List.of(f)));
        assertEquals(List.of(0x400000L, 0x400003L), r.fetches);
        assertEquals(List.of("0 0 0 L 9000"), r.accesses, "the load carries its instruction's clock");
        assertEquals("serial 0-2", r.phases.get(0));
    }
}
