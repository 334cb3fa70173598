package org.dsmscope.trace;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A file the project writes can be checked for completeness (the end record, header flag {@link
 * SmaitFormat#FLAG_END}) and for corruption (zstd and LZ4 content checksums): a file cut at a record boundary, one
 * with records appended or missing, one with a flipped byte inside a compressed frame is an error naming the file,
 * never different figures.
 */
class CompletenessTest {
    @TempDir
    Path dir;

    /** A file of {@code n} memory records and one call record, written with an end record in codec {@code c}. */
    private Path write(String name, Codec c, int n, boolean end) throws IOException {
        Path f = dir.resolve(name);
        TraceWriter.Options o = new TraceWriter.Options().codec(c).endRecord(end);
        try (TraceWriter w = TraceWriter.create(f, o)) {
            w.call(CallType.BARRIER, 1, 2, 0x100, 0, 0, 0);
            java.util.Random rnd = new java.util.Random(7);
            for (int i = 0; i < n; i++) {
                w.memory(i % 3 == 0 ? MemType.STORE : MemType.LOAD, 4, MemType.FIXED, rnd.nextInt(1 << 30) & ~3L);
            }
            if (end) {
                w.finish();
            }
        }
        return f;
    }

    /** Reads every record; returns how many. */
    private static long readAll(Path f, boolean skip) throws IOException {
        try (TraceReader r = TraceReader.open(f, new TraceReader.Options().skipBadRecords(skip))) {
            long n = 0;
            while (r.next() != RecordKind.EOF) {
                n++;
            }
            return n;
        }
    }

    @Test
    void fileWithEndRecord_readsEveryRecord_andSaysItIsCheckable() throws IOException {
        Path f = write("a.1.0", Codec.NONE, 100, true);
        assertEquals(101, readAll(f, false));
        try (TraceReader r = TraceReader.open(f)) {
            assertTrue(r.endPromised());
        }
        // header, 6 call parts, 100 memory records, the end record
        assertEquals(8L * (1 + 6 + 100 + 1), Files.size(f));
    }

    @Test
    void classicFile_isNotCheckable() throws IOException {
        Path f = write("c.1.0", Codec.NONE, 10, false);
        try (TraceReader r = TraceReader.open(f)) {
            assertFalse(r.endPromised());
        }
    }

    @Test
    void verifiable_whenAnEndIsPromised_orTheFirstRecordIsStartTrace_only() throws IOException {
        Path classic = write("v.1.0", Codec.NONE, 10, false);
        Path ended = write("e.1.0", Codec.NONE, 10, true);
        Path started = dir.resolve("st.1.0");
        Path later = dir.resolve("la.1.0");
        for (Path f : List.of(started, later)) {
            try (TraceWriter w = TraceWriter.create(f, TraceWriter.Options.classic())) {
                if (f == later) {
                    w.memory(MemType.LOAD, 4, MemType.FIXED, 0x40);
                }
                w.call(CallType.START_TRACE, 0, 0, 0, 0, 0, 0);
                w.memory(MemType.LOAD, 4, MemType.FIXED, 0x80);
            }
        }
        assertEquals(List.of(false, true, true, false), List.of(verifiable(classic), verifiable(ended),
                verifiable(started), verifiable(later)));
    }

    private static boolean verifiable(Path f) throws IOException {
        try (TraceReader r = TraceReader.open(f)) {
            while (r.next() != RecordKind.EOF) {
                // read to the end
            }
            return r.verifiable();
        }
    }

    @Test
    void cutAtARecordBoundary_isAnErrorNamingTheFile() throws IOException {
        Path f = write("t.1.0", Codec.NONE, 100, true);
        for (int drop : new int[] {1, 2, 50}) {
            Path g = dir.resolve("cut" + drop);
            byte[] b = Files.readAllBytes(f);
            Files.write(g, Arrays.copyOf(b, b.length - 8 * drop));
            TraceFormatException e = assertThrows(TraceFormatException.class, () -> readAll(g, false));
            assertTrue(e.getMessage().startsWith(g + ": byte offset "), e.getMessage());
            assertTrue(e.getMessage().contains("without the end record"), e.getMessage());
        }
    }

    @Test
    void cutFile_withSkipping_keepsItsRecordsAndCountsOneSkip() throws IOException {
        Path f = write("s.1.0", Codec.NONE, 100, true);
        byte[] b = Files.readAllBytes(f);
        Path g = dir.resolve("cut");
        Files.write(g, Arrays.copyOf(b, b.length - 8 * 11));
        try (TraceReader r = TraceReader.open(g, new TraceReader.Options().skipBadRecords(true))) {
            long n = 0;
            while (r.next() != RecordKind.EOF) {
                n++;
            }
            assertEquals(91, n);
            assertEquals(1, r.skipped());
            assertTrue(r.skippedSummary().contains("without the end record"), r.skippedSummary());
        }
    }

    @Test
    void recordsAfterTheEnd_orMissingBeforeIt_areErrors() throws IOException {
        Path f = write("x.1.0", Codec.NONE, 20, true);
        byte[] b = Files.readAllBytes(f);
        Path appended = dir.resolve("appended");
        byte[] more = Arrays.copyOf(b, b.length + 16);
        System.arraycopy(b, 8 * 7, more, b.length, 16); // two memory records after the end record
        Files.write(appended, more);
        TraceFormatException e = assertThrows(TraceFormatException.class, () -> readAll(appended, false));
        assertTrue(e.getMessage().contains("after the end record"), e.getMessage());
        Path joined = dir.resolve("joined");
        byte[] two = Arrays.copyOf(b, 2 * b.length);
        System.arraycopy(b, 0, two, b.length, b.length);
        Files.write(joined, two);
        assertThrows(TraceFormatException.class, () -> readAll(joined, false));
        Path gap = dir.resolve("gap");
        byte[] less = new byte[b.length - 8];
        System.arraycopy(b, 0, less, 0, 8 * 10);
        System.arraycopy(b, 8 * 11, less, 8 * 10, b.length - 8 * 11); // the 4th memory record removed
        Files.write(gap, less);
        e = assertThrows(TraceFormatException.class, () -> readAll(gap, false));
        assertTrue(e.getMessage().contains("end record counts 27 simple records before it, the file has 26"),
                e.getMessage());
    }

    @Test
    void anEndRecordInAFileThatPromisedNone_isABadRecord() throws IOException {
        Path f = dir.resolve("e.1.0");
        try (TraceWriter w = TraceWriter.create(f, new TraceWriter.Options().extended(true))) {
            w.memory(MemType.LOAD, 4, MemType.FIXED, 0x1000);
            w.raw(SmaitFormat.TAG_END, 2);
        }
        TraceFormatException e = assertThrows(TraceFormatException.class, () -> readAll(f, false));
        assertTrue(e.getMessage().contains("bad extension record 13000000"), e.getMessage());
    }

    /**
     * One flipped byte anywhere in a compressed file's frames is reported as a corrupt stream: the content
     * checksums (zstd's XXH64, LZ4's xxHash32) catch what the decoders alone would decode into other addresses.
     */
    @Test
    void flippedByteInACompressedFile_isAlwaysAnError() throws IOException {
        for (Codec c : new Codec[] {Codec.ZSTD, Codec.LZ4}) {
            Path f = write("z." + c, c, 4000, true);
            byte[] b = Files.readAllBytes(f);
            int silent = 0;
            for (int at = 16; at < b.length; at += Math.max(1, b.length / 97)) {
                byte[] m = b.clone();
                m[at] ^= 0x10;
                Path g = dir.resolve("flip");
                Files.write(g, m);
                try {
                    readAll(g, false);
                    silent++;
                } catch (TraceFormatException e) {
                    assertTrue(e.getMessage().startsWith(g + ": byte offset "), e.getMessage());
                }
            }
            assertEquals(0, silent, c + ": flipped bytes read without an error");
        }
    }
}
