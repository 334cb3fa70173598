package org.dsmscope.trace;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteOrder;
import java.nio.channels.Channels;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;

/**
 * Readers of a range of a file ({@link TraceReader#mark}, {@link TraceReader#openAt}) and writers that continue a
 * stream ({@link TraceWriter.Options#continuation}): what the replay's chunked routers rely on.
 */
class MarkRangeTest {

    /** A random file: memory records across address-high words, calls, branches; any order, header or not. */
    private static Path write(Path f, SplittableRandom rnd, TraceWriter.Options o, int records) throws IOException {
        try (TraceWriter w = TraceWriter.create(f, o)) {
            for (int i = 0; i < records; i++) {
                int k = rnd.nextInt(20);
                long hi = o.addr64 ? (long) rnd.nextInt(3) << 32 : 0;
                if (k == 0) {
                    w.call(CallType.BEGIN_CRITICAL, i, i + 1, 0x100, 0, 0, 0);
                } else if (k == 1) {
                    w.branch(0x4c18, 0x4d20);
                } else {
                    w.memory(k % 2 == 0 ? MemType.LOAD : MemType.STORE, 4, MemType.FIXED, hi | rnd.nextInt(1 << 30) * 4L);
                }
            }
            w.finish();
        }
        return f;
    }

    /** Every record as text, read by {@code next()} and runs of {@code nextRun} at random. */
    private static void readAll(TraceReader r, SplittableRandom rnd, List<String> out) {
        for (;;) {
            int n = rnd.nextBoolean() ? r.nextRun(1 + rnd.nextInt(50)) : 0;
            if (n > 0) {
                long[] w = r.runWords();
                for (int i = r.runStart(); i < r.runStart() + n; i++) {
                    out.add(word(w[i], r.addressHigh()));
                }
                continue;
            }
            int k = r.next();
            if (k == RecordKind.EOF) {
                return;
            }
            out.add(record(r, k));
        }
    }

    /** A word of a run as text: the memory type field (or "b" for a branch) and the address. */
    private static String word(long w, long high) {
        String kind = TraceReader.wordKind(w) == RecordKind.MEMORY ? Long.toHexString(w >>> 32) : "b";
        return kind + " " + Long.toHexString(high | (w & 0xFFFFFFFFL));
    }

    /** The record {@code next()} read as text, as {@link #word} writes the same record. */
    private static String record(TraceReader r, int k) {
        if (k == RecordKind.CALL) {
            return "call " + r.callType() + " " + r.startTime() + " @" + r.offset();
        }
        return (k == RecordKind.MEMORY ? Integer.toHexString(r.memType()) : "b") + " " + Long.toHexString(r.address());
    }

    @Property(tries = 60)
    void rangesFromMarks_readTheFilesRecordsOnce_withTheirOffsetsAndAddresses(@ForAll long seed,
            @ForAll @IntRange(min = 0, max = 3) int format, @ForAll boolean mapped) throws IOException {
        SplittableRandom rnd = new SplittableRandom(seed);
        Path d = Files.createTempDirectory("marks");
        try {
            TraceWriter.Options o = format == 0 ? TraceWriter.Options.classic()
                    : format == 1 ? TraceWriter.Options.classic().order(ByteOrder.LITTLE_ENDIAN)
                    : format == 2 ? new TraceWriter.Options().addr64(true)
                    : new TraceWriter.Options().addr64(true).endRecord(true).order(ByteOrder.LITTLE_ENDIAN);
            Path f = write(d.resolve("t.1.0"), rnd, o, 1 + rnd.nextInt(3000));
            TraceReader.Options ro = TraceReader.Options.defaults().order(format == 1 ? ByteOrder.LITTLE_ENDIAN : null)
                    .mapBytes(mapped ? 1 << 16 : 0);
            List<String> whole = new ArrayList<>();
            List<TraceReader.Mark> marks = new ArrayList<>();
            long records;
            try (TraceReader r = TraceReader.open(f, ro)) {
                marks.add(r.mark());
                SplittableRandom walk = new SplittableRandom(seed);
                for (;;) {
                    int n = r.nextRun(1 + walk.nextInt(30));
                    if (n > 0) {
                        long[] w = r.runWords();
                        for (int i = r.runStart(); i < r.runStart() + n; i++) {
                            whole.add(word(w[i], r.addressHigh()));
                        }
                    } else {
                        int k = r.next();
                        if (k == RecordKind.EOF) {
                            break;
                        }
                        whole.add(record(r, k));
                    }
                    if (walk.nextInt(40) == 0) {
                        marks.add(r.mark());
                    }
                }
                records = r.records();
            }
            List<String> pieces = new ArrayList<>();
            long size = Files.size(f);
            for (int i = 0; i < marks.size(); i++) {
                long to = i + 1 < marks.size() ? marks.get(i + 1).offset() : size;
                try (TraceReader r = TraceReader.openAt(f, ro, marks.get(i), to)) {
                    readAll(r, new SplittableRandom(seed + i), pieces);
                    if (i + 1 == marks.size()) {
                        assertEquals(records, r.records(), "the file's record count");
                    } else {
                        assertEquals(marks.get(i + 1).records(), r.records());
                    }
                }
            }
            assertEquals(whole, pieces);
        } finally {
            try (var s = Files.walk(d)) {
                s.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
    }

    @Property(tries = 30)
    void writersThatContinueAStream_readAsOneStream(@ForAll long seed, @ForAll @IntRange(min = 1, max = 5) int parts)
            throws IOException {
        SplittableRandom rnd = new SplittableRandom(seed);
        ByteArrayOutputStream all = new ByteArrayOutputStream();
        List<String> written = new ArrayList<>();
        for (int k = 0; k < parts; k++) {
            TraceWriter.Options o = TraceWriter.Options.classic().addr64(true).continuation(k > 0);
            try (TraceWriter w = new TraceWriter(Channels.newChannel(all), "s", o)) {
                for (int i = rnd.nextInt(20); i > 0; i--) {
                    long a = (long) rnd.nextInt(3) << 32 | rnd.nextInt(1 << 20) * 8L;
                    w.memory(MemType.LOAD, 8, MemType.FIXED, a);
                    written.add(Long.toHexString(a));
                }
            }
        }
        List<String> read = new ArrayList<>();
        try (TraceReader r = new TraceReader(Channels.newChannel(new java.io.ByteArrayInputStream(all.toByteArray())),
                "s", TraceReader.Options.defaults())) {
            while (r.next() != RecordKind.EOF) {
                read.add(Long.toHexString(r.address()));
            }
        }
        assertEquals(written, read);
    }

    @org.junit.jupiter.api.Test
    void aRangeBeyondTheFile_isRefusedInOneLine(@org.junit.jupiter.api.io.TempDir Path d) throws IOException {
        Path f = write(d.resolve("t.1.0"), new SplittableRandom(1), new TraceWriter.Options().addr64(true), 10);
        TraceReader.Mark m;
        try (TraceReader r = TraceReader.open(f)) {
            m = r.mark();
        }
        BadInputException e = assertThrows(BadInputException.class,
                () -> TraceReader.openAt(f, TraceReader.Options.defaults(), m, Files.size(f) + 8));
        assertEquals(f + ": cannot read bytes 8 to " + (Files.size(f) + 8) + " of a file of " + Files.size(f)
                + " bytes (the file changed since it was marked)", e.getMessage());
    }
}
