package org.dsmscope.trace;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Each kind of bad input gives one message naming the file, the byte offset and what is wrong. */
class BadInputTest {
    @TempDir
    Path dir;

    private Path file(String hex) throws IOException {
        Path f = dir.resolve("bad.1.0");
        Files.write(f, HexFormat.of().parseHex(hex.replace(" ", "")));
        return f;
    }

    private static String call(int type, int... parts) {
        StringBuilder s = new StringBuilder();
        for (int p : parts) {
            s.append(String.format("00001%02x%d %08x ", type, p, p + 1));
        }
        return s.toString();
    }

    /** Mapping windows to read with besides the default: none (read through a buffer), one word, two words. */
    private static final long[] MAPS = {0, 8, 16};

    /** The error of reading {@code f}, the same whether the file is mapped (in any window size) or read. */
    private TraceFormatException failure(Path f) {
        TraceFormatException e = failure(f, new TraceReader.Options());
        for (long map : MAPS) {
            assertEquals(e.getMessage(), failure(f, new TraceReader.Options().mapBytes(map)).getMessage());
        }
        return e;
    }

    private static TraceFormatException failure(Path f, TraceReader.Options o) {
        return assertThrows(TraceFormatException.class, () -> {
            try (TraceReader r = TraceReader.open(f, o)) {
                while (r.next() != RecordKind.EOF) {
                    // read all
                }
            }
        });
    }

    private long skipped(Path f, int expectRecords) throws IOException {
        long n = skipped(f, expectRecords, new TraceReader.Options());
        for (long map : MAPS) {
            assertEquals(n, skipped(f, expectRecords, new TraceReader.Options().mapBytes(map)));
        }
        return n;
    }

    private static long skipped(Path f, int expectRecords, TraceReader.Options o) throws IOException {
        try (TraceReader r = TraceReader.open(f, o.skipBadRecords(true))) {
            int n = 0;
            while (r.next() != RecordKind.EOF) {
                n++;
            }
            assertEquals(expectRecords, n);
            assertEquals(expectRecords, r.records());
            return r.skipped();
        }
    }

    @Test
    void truncatedFile_namesOffsetOfTheTrailingBytes() throws IOException {
        Path f = file("00000040 00001000 00000040");
        TraceFormatException e = failure(f);
        assertEquals(f.toString(), e.file());
        assertEquals(8, e.offset());
        assertEquals(f + ": byte offset 8: truncated record: 4 trailing bytes (a simple record has 8)", e.getMessage());
        assertEquals(1, skipped(f, 1));
    }

    @Test
    void callRecordMissingAPart_isReportedAtTheMissingPart() throws IOException {
        Path f = file("00000040 00001000 " + call(3, 0, 1, 2, 4, 5) + "00000040 00001000");
        TraceFormatException e = failure(f);
        assertEquals(8, e.offset());
        assertTrue(e.what().contains("part 3 expected at byte offset 32, found part 4"), e.what());
        // skipping: the three good parts are dropped as one bad record, the stray parts 4 and 5 as two more
        assertEquals(3, skipped(f, 2));
    }

    @Test
    void callRecordPartsOutOfOrder_isAnError() throws IOException {
        Path f = file(call(6, 0, 2, 1, 3, 4, 5));
        TraceFormatException e = failure(f);
        assertTrue(e.what().contains("part 1 expected at byte offset 8, found part 2"), e.what());
    }

    @Test
    void callRecordPartWithoutPartZero_isAnError() throws IOException {
        Path f = file(call(6, 1, 2, 3, 4, 5));
        TraceFormatException e = failure(f);
        assertEquals(0, e.offset());
        assertTrue(e.what().contains("part 1 of type 06 (begin_critical) without part 0"), e.what());
    }

    @Test
    void callRecordCutOffByEndOfFile_isTruncated() throws IOException {
        Path f = file("00000040 00001000 " + call(1, 0, 1, 2));
        TraceFormatException e = failure(f);
        assertEquals(8, e.offset());
        assertTrue(e.what().contains("truncated call record of type 01 (spawn): part 3 missing"), e.what());
    }

    @Test
    void unknownRecordTag_isNamedInHex() throws IOException {
        Path f = file("00000040 00001000 20000000 00000000");
        TraceFormatException e = failure(f);
        assertEquals(f + ": byte offset 8: unknown record tag 20000000", e.getMessage());
        assertEquals(1, skipped(f, 1));
    }

    @Test
    void unknownCallType_isAnError() throws IOException {
        Path f = file(call(0x30, 0, 1, 2, 3, 4, 5));
        assertTrue(failure(f).what().contains("unknown call type 30"));
    }

    /**
     * Accesses that run past the end of the 64-bit address space (their last byte would wrap to address 0) are bad
     * records, whether read one by one or in runs, memory (classic and wide) or fetch; one that ends exactly at
     * 2^64 - 1 is not. Low addresses in the same file still take the fast paths.
     */
    @Test
    void accessPastTheEndOfThe64BitAddressSpace_isABadRecord() throws IOException {
        Path f = dir.resolve("top.1.0");
        try (TraceWriter w = TraceWriter.create(f, new TraceWriter.Options().addr64(true))) {
            w.memory(MemType.LOAD, 8, MemType.FIXED, 0x1000);
            w.memory(MemType.LOAD, 8, MemType.FIXED, 0xFFFFFFFFFFFFFFF8L); // ends at 2^64 - 1: fine
            w.memory(MemType.STORE, 8, MemType.FIXED, 0xFFFFFFFFFFFFFFFCL); // past the end
            w.memory(MemType.LOAD, 10, MemType.VECTOR, 0xFFFFFFFFFFFFFFF8L); // wide, past the end
            w.fetch(0xFFFFFFFFFFFFFFFFL, 2); // fetch, past the end
            w.memory(MemType.LOAD, 4, MemType.FIXED, 0xFFFFFFFF00000000L);
            w.memory(MemType.LOAD, 4, MemType.FIXED, 0x2000);
        }
        TraceFormatException e = failure(f);
        // header (8), address-high 0 is not written, record 0x1000 (8), address-high FFFFFFFF (8), the good one (8)
        assertEquals(f + ": byte offset 32: record 00000081 fffffffc: an access at 0xfffffffffffffffc runs past the"
                + " end of the 64-bit address space", e.getMessage());
        assertEquals(3, skipped(f, 4));
        try (TraceReader r = TraceReader.open(f, new TraceReader.Options().skipBadRecords(true))) {
            List<Long> addresses = new java.util.ArrayList<>();
            for (;;) {
                int n = r.nextRun(64);
                if (n > 0) {
                    for (int i = r.runStart(); i < r.runStart() + n; i++) {
                        addresses.add(r.addressHigh() | (r.runWords()[i] & 0xFFFFFFFFL));
                    }
                    continue;
                }
                if (r.next() == RecordKind.EOF) {
                    break;
                }
                addresses.add(r.address());
            }
            assertEquals(List.of(0x1000L, 0xFFFFFFFFFFFFFFF8L, 0xFFFFFFFF00000000L, 0x2000L), addresses);
            assertEquals(3, r.skipped());
        }
    }

    @Test
    void badMemoryTypeField_isAnError() throws IOException {
        Path f = file("00000050 00001000");
        assertEquals(f + ": byte offset 0: bad memory-access type field 00000050", failure(f).getMessage());
    }

    @Test
    void extensionRecordInAClassicFile_isAnUnknownTag() throws IOException {
        Path f = file("00000040 00001000 10000004 00001000");
        assertTrue(failure(f).what().contains("unknown record tag 10000004 (an extension record in a headerless"));
    }

    @Test
    void addressHighRecordWithoutAddr64Flag_isAnError() throws IOException {
        Path f = file("2D534D54 01000000 11000000 00000001 00000040 00001000");
        TraceFormatException e = failure(f);
        assertEquals(8, e.offset());
        assertTrue(e.what().contains("bad extension record 11000000 00000001"), e.what());
    }

    @Test
    void newerMajorVersion_isRefused() throws IOException {
        Path f = file("2D534D54 02000000");
        assertTrue(failure(f).what().contains("unsupported extended format version 2"));
    }

    @Test
    void emptyFile_isAnError() throws IOException {
        Path f = file("");
        TraceFormatException e = assertThrows(TraceFormatException.class, () -> TraceReader.open(f).close());
        assertEquals(f + ": byte offset 0: empty trace file (no records)", e.getMessage());
    }

    @Test
    void truncatedCompressedFile_namesTheStreamOffset() throws IOException {
        for (Codec c : new Codec[] {Codec.ZSTD, Codec.LZ4}) {
            Path whole = dir.resolve("whole");
            try (TraceWriter w = TraceWriter.create(whole, new TraceWriter.Options().codec(c))) {
                for (int i = 0; i < 100_000; i++) {
                    w.memory(MemType.LOAD, 4, 0, i * 4L * 7919);
                }
            }
            byte[] b = Files.readAllBytes(whole);
            Path f = dir.resolve("cut");
            Files.write(f, Arrays.copyOf(b, b.length / 2));
            TraceFormatException e = failure(f);
            assertTrue(e.getMessage().startsWith(f + ": byte offset "), e.getMessage());
            assertTrue(e.what().contains("corrupt or truncated " + c.name().toLowerCase() + " stream"), e.what());
        }
    }

    @Test
    void missingFile_isABadInputNotAStackTrace() {
        BadInputException e = assertThrows(BadInputException.class, () -> TraceReader.open(dir.resolve("nope")));
        assertEquals(dir.resolve("nope") + ": no such trace file", e.getMessage());
    }

    @Test
    void listFileMissingBinaryOrWithANul_isOneLineNamingTheListFile() throws IOException {
        Path none = dir.resolve("none.list");
        assertEquals(none + ": no such list file",
                assertThrows(BadInputException.class, () -> TraceSet.ofList(none)).getMessage());
        Path trace = dir.resolve("t.1.0");
        Files.write(trace, HexFormat.of().parseHex("00000040 ffff1000 00000181 80808080".replace(" ", "")));
        assertTrue(assertThrows(BadInputException.class, () -> TraceSet.ofList(trace)).getMessage()
                .startsWith(trace + ": not a list file (not UTF-8 text;"));
        Path nul = dir.resolve("nul.list");
        Files.write(nul, "t.1.0\nx\u0000y\n".getBytes(java.nio.charset.StandardCharsets.UTF_8));
        assertTrue(assertThrows(BadInputException.class, () -> TraceSet.ofList(nul)).getMessage()
                .startsWith(nul + ": line 2: not a file name: "));
    }

    @Test
    void listFileNamingAMissingFile_namesListLineAndFile() throws IOException {
        Files.write(dir.resolve("a.t"), HexFormat.of().parseHex("0000004000001000"));
        Path list = dir.resolve("run.list");
        Files.write(list, List.of("# threads", "a.t", "", "b.t"));
        BadInputException e = assertThrows(BadInputException.class, () -> TraceSet.ofList(list));
        assertEquals(list + ": line 4: " + dir.resolve("b.t") + ": no such trace file", e.getMessage());
    }

    @Test
    void listFileNamingAFolder_isAnError() throws IOException {
        Files.createDirectory(dir.resolve("sub"));
        Path list = dir.resolve("run.list");
        Files.write(list, List.of("sub"));
        BadInputException e = assertThrows(BadInputException.class, () -> TraceSet.ofList(list));
        assertTrue(e.getMessage().endsWith("is a directory, not a trace file"));
    }

    @Test
    void listFileNamingAnUnreadableFile_isAnError() throws IOException {
        Assumptions.assumeFalse("root".equals(System.getProperty("user.name")), "root reads every file");
        Path a = dir.resolve("a.t");
        Files.write(a, HexFormat.of().parseHex("0000004000001000"));
        Files.setPosixFilePermissions(a, PosixFilePermissions.fromString("---------"));
        Path list = dir.resolve("run.list");
        Files.write(list, List.of("a.t"));
        BadInputException e = assertThrows(BadInputException.class, () -> TraceSet.ofList(list));
        assertEquals(list + ": line 1: " + a + ": trace file is not readable (permission denied)", e.getMessage());
    }

    @Test
    void traceSetWithAMissingThreadFile_namesIt() throws IOException {
        Files.write(dir.resolve("run.2.0"), HexFormat.of().parseHex("0000004000001000"));
        String prefix = dir.resolve("run.2").toString();
        BadInputException e = assertThrows(BadInputException.class, () -> TraceSet.ofPrefix(prefix));
        assertEquals(prefix + ".1: no such trace file", e.getMessage());
    }

    @Test
    void fileTruncatedWhileMapped_isAReadErrorNotAFault() throws IOException {
        Path f = dir.resolve("shrinks.1.0");
        try (TraceWriter w = TraceWriter.create(f, TraceWriter.Options.classic())) {
            for (int i = 0; i < 20000; i++) {
                w.memory(MemType.LOAD, 4, MemType.FIXED, 8L * i);
            }
        }
        try (TraceReader r = TraceReader.open(f)) {
            assertEquals(RecordKind.MEMORY, r.next());
            try (java.nio.channels.FileChannel ch = java.nio.channels.FileChannel.open(f,
                    java.nio.file.StandardOpenOption.WRITE)) {
                ch.truncate(4096);
            }
            java.io.UncheckedIOException e = assertThrows(java.io.UncheckedIOException.class, () -> {
                while (r.next() != RecordKind.EOF) {
                    // read on into the pages the truncation took away
                }
            });
            assertEquals(f + ": cannot read: the file shrank while being read", e.getMessage());
        }
    }
}
