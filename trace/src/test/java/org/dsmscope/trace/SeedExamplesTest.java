package org.dsmscope.trace;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HexFormat;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Seed 000 Appendix A's own examples, bit for bit, in both directions (write → bytes, bytes → record). */
class SeedExamplesTest {
    @TempDir
    Path dir;

    private String hexOfClassic(Rec... recs) throws IOException {
        Path f = dir.resolve("t");
        Rec.write(f, TraceWriter.Options.classic(), List.of(recs));
        return HexFormat.of().withUpperCase().formatHex(Files.readAllBytes(f));
    }

    private TraceReader readerOfHex(String hex) throws IOException {
        Path f = dir.resolve("r");
        Files.write(f, HexFormat.of().parseHex(hex.replace(" ", "")));
        return TraceReader.open(f);
    }

    @Test
    void loadWordIntoFixedPointRegister_isTypeField00000040() throws IOException {
        assertEquals("00000040" + "00001234", hexOfClassic(Rec.load(4, MemType.FIXED, 0x1234)));
        try (TraceReader r = readerOfHex("00000040 00001234")) {
            assertEquals(RecordKind.MEMORY, r.next());
            assertFalse(r.isStore());
            assertEquals(4, r.size());
            assertEquals(MemType.FIXED, r.regType());
            assertEquals(0x1234, r.address());
            assertEquals(RecordKind.EOF, r.next());
        }
    }

    @Test
    void storeDoubleWordFromFloatingPointRegister_isTypeField00000181() throws IOException {
        assertEquals("00000181" + "0000ABC8", hexOfClassic(Rec.store(8, MemType.FLOAT, 0xABC8)));
        try (TraceReader r = readerOfHex("00000181 0000ABC8")) {
            assertEquals(RecordKind.MEMORY, r.next());
            assertTrue(r.isStore());
            assertEquals(8, r.size());
            assertEquals(MemType.FLOAT, r.regType());
            assertEquals(0xABC8, r.address());
        }
    }

    @Test
    void procedureStartAt4C00_is40000000_00004C00() throws IOException {
        assertEquals("4000000000004C00", hexOfClassic(Rec.procStart(0x4C00)));
        try (TraceReader r = readerOfHex("40000000 00004C00")) {
            assertEquals(RecordKind.PROC_START, r.next());
            assertEquals(0x4C00, r.address());
        }
    }

    @Test
    void takenBranchAt4C14To4D20_is80004C18_00004D20() throws IOException {
        assertEquals("80004C1800004D20", hexOfClassic(Rec.branch(0x4C18, 0x4D20)));
        try (TraceReader r = readerOfHex("80004C18 00004D20")) {
            assertEquals(RecordKind.BRANCH, r.next());
            assertEquals(0x4C18, r.source());
            assertEquals(0x4D20, r.target());
        }
    }

    @Test
    void procedureCallAt5428To5630_isC000542C_00005630() throws IOException {
        assertEquals("C000542C00005630", hexOfClassic(Rec.procCall(0x542C, 0x5630)));
        try (TraceReader r = readerOfHex("C000542C 00005630")) {
            assertEquals(RecordKind.PROC_CALL, r.next());
            assertEquals(0x542C, r.source());
            assertEquals(0x5630, r.target());
        }
    }

    @Test
    void callRecord_isSixSimpleRecordsTagged00001xxN() throws IOException {
        String hex = hexOfClassic(Rec.call(CallType.BARRIER, 100, 250, 0x8000, 4, 0, 0));
        assertEquals("00001030" + "00000064" + "00001031" + "000000FA" + "00001032" + "00008000"
                + "00001033" + "00000004" + "00001034" + "00000000" + "00001035" + "00000000", hex);
        try (TraceReader r = readerOfHex(hex)) {
            assertEquals(RecordKind.CALL, r.next());
            assertEquals(CallType.BARRIER, r.callType());
            assertEquals(100, r.startTime());
            assertEquals(250, r.endTime());
            assertEquals(0x8000, r.arg(1));
            assertEquals(4, r.arg(2));
            assertEquals(RecordKind.EOF, r.next());
        }
    }

    @Test
    void everyTable4CallType_usesItsTwoHexDigits() throws IOException {
        int[] types = {0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x10, 0x11, 0x12, 0x13, 0x14, 0x15, 0x16, 0x17, 0x18};
        for (int t : types) {
            String hex = hexOfClassic(Rec.call(t, 1, 2, 3, 4, 5, 6));
            for (int part = 0; part < 6; part++) {
                assertEquals(String.format("00001%02X%d", t, part), hex.substring(part * 16, part * 16 + 8));
            }
            try (TraceReader r = readerOfHex(hex)) {
                assertEquals(RecordKind.CALL, r.next());
                assertEquals(t, r.callType());
            }
        }
    }

    @Test
    void classicFile_isBigEndianWithoutHeader() throws IOException {
        Path f = dir.resolve("t");
        Rec.write(f, TraceWriter.Options.classic(), List.of(Rec.load(4, 0, 0x10)));
        ByteBuffer b = ByteBuffer.wrap(Files.readAllBytes(f)).order(ByteOrder.BIG_ENDIAN);
        assertEquals(8, b.capacity());
        assertEquals(0x40, b.getInt(0));
        try (TraceReader r = TraceReader.open(f)) {
            assertFalse(r.extended());
            assertEquals(ByteOrder.BIG_ENDIAN, r.order());
        }
    }

    @Test
    void extendedHeader_isMagicThenVersionAndFlags() throws IOException {
        Path f = dir.resolve("t");
        Rec.write(f, new TraceWriter.Options().addr64(true), List.of());
        assertEquals("2D534D54" + "01000001", HexFormat.of().withUpperCase().formatHex(Files.readAllBytes(f)));
    }

    @Test
    void extensionRecords_haveTopHexDigitOne() throws IOException {
        Path f = dir.resolve("t");
        Rec.write(f, new TraceWriter.Options().addr64(true),
                List.of(Rec.fetch(0x401000, 5), Rec.load(10, MemType.FIXED, 0x2000), Rec.store(4, 0, 0x1_0000_0010L)));
        assertEquals("2D534D5401000001" + "1000000500401000" + "1200000A00002000" + "1100000000000001"
                + "0000004100000010", HexFormat.of().withUpperCase().formatHex(Files.readAllBytes(f)));
    }
}
