package org.dsmscope.trace;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;

/**
 * {@link TraceReader#unread} and {@link TraceReader#peekRun} / {@link TraceReader#skip}: a consumer that stops in
 * the middle of a run, or looks ahead and takes part of what it saw, reads every record exactly once.
 */
class ReaderUnreadTest {

    @Provide
    Arbitrary<List<Rec>> traces() {
        return new WriterReaderPropertyTest().addr64Traces();
    }

    @Property(tries = 60)
    void runsCutShort_returnEveryRecordOnce(@ForAll("traces") List<Rec> recs, @ForAll @IntRange(min = 1, max = 9) int take,
            @ForAll @IntRange(min = 1, max = 30) int max) throws IOException {
        Path f = Files.createTempFile("unread", ".t");
        try {
            Rec.write(f, new TraceWriter.Options().addr64(true).bufferBytes(96), recs);
            List<Rec> got = new ArrayList<>();
            try (TraceReader r = TraceReader.open(f, new TraceReader.Options().bufferBytes(200))) {
                for (;;) {
                    int n = r.nextRun(max);
                    if (n == 0) {
                        if (r.next() == RecordKind.EOF) {
                            break;
                        }
                        got.add(Rec.of(r));
                        continue;
                    }
                    int used = Math.min(n, take);
                    long[] w = r.runWords();
                    for (int i = r.runStart(); i < r.runStart() + used; i++) {
                        got.add(Rec.word(w[i], r.addressHigh()));
                    }
                    int back = n - used;
                    if (back > 0) {
                        assertThrows(IllegalArgumentException.class, () -> r.unread(n));
                    }
                    r.unread(back);
                    assertEquals(got.get(got.size() - 1), Rec.of(r), "accessors describe the last word kept");
                }
            }
            assertEquals(recs, got);
        } finally {
            Files.delete(f);
        }
    }

    @Property(tries = 60)
    void lookAheadThenSkip_returnsEveryRecordOnce(@ForAll("traces") List<Rec> recs,
            @ForAll @IntRange(min = 0, max = 9) int take, @ForAll @IntRange(min = 1, max = 30) int max)
            throws IOException {
        Path f = Files.createTempFile("peek", ".t");
        try {
            Rec.write(f, new TraceWriter.Options().addr64(true).bufferBytes(96), recs);
            List<Rec> got = new ArrayList<>();
            try (TraceReader r = TraceReader.open(f, new TraceReader.Options().bufferBytes(200))) {
                for (;;) {
                    int n = r.peekRun(max);
                    assertEquals(n, r.peekRun(max), "a look-ahead reads nothing");
                    int used = Math.min(n, take);
                    if (used == 0) {
                        if (r.next() == RecordKind.EOF) {
                            break;
                        }
                        got.add(Rec.of(r));
                        continue;
                    }
                    long[] w = r.runWords();
                    for (int i = r.runStart(); i < r.runStart() + used; i++) {
                        got.add(Rec.word(w[i], r.addressHigh()));
                    }
                    assertThrows(IllegalArgumentException.class, () -> r.skip(n + 1));
                    r.skip(used);
                    assertEquals(got.get(got.size() - 1), Rec.of(r), "accessors describe the last word taken");
                }
            }
            assertEquals(recs, got);
        } finally {
            Files.delete(f);
        }
    }
}
