package org.dsmscope.trace;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/** Property: whatever the writer writes, the reader returns the same records (the reference is a plain list). */
class WriterReaderPropertyTest {

    @Provide
    Arbitrary<List<Rec>> classicTraces() {
        return Arbitraries.oneOf(memory(0xFFFF_FFFFL, false), call(), branch(0xFFFF_FFFFL, false))
                .list().ofMaxSize(200);
    }

    /** Mapping windows of uncompressed files: none (read through the buffer), tiny, odd, and the default. */
    @Provide
    Arbitrary<Long> mapSizes() {
        return Arbitraries.of(0L, 8L, 40L, 48L, 200L, 4096L, 1L << 26);
    }

    @Provide
    Arbitrary<List<Rec>> addr64Traces() {
        return Arbitraries.oneOf(memory(-1L, true), call(), branch(-1L, true), fetch())
                .list().ofMaxSize(200);
    }

    private static Arbitrary<Long> addr(long max) {
        return Arbitraries.oneOf(Arbitraries.longs().between(0, max == -1L ? Long.MAX_VALUE : max),
                Arbitraries.of(0L, 0xFFFF_FFFFL & max, max, 0x1_0000_0000L & max, 0x1F_FEFF_F8A8L & max));
    }

    private static Arbitrary<Rec> memory(long max, boolean wide) {
        Arbitrary<Integer> size = wide ? Arbitraries.integers().between(1, 0xFFFF)
                : Arbitraries.of(1, 2, 3, 4, 8, 16, 32, 64);
        return Combinators.combine(Arbitraries.of(MemType.LOAD, MemType.STORE), size,
                Arbitraries.integers().between(0, MemType.VECTOR), addr(max))
                .as((k, s, r, a) -> k == MemType.LOAD ? Rec.load(s, r, fit(a, s)) : Rec.store(s, r, fit(a, s)));
    }

    /**
     * {@code a}, or the last address from which {@code size} bytes still fit below 2^64 if they would not (an access
     * past the end of the address space is a bad record: BadInputTest).
     */
    private static long fit(long a, int size) {
        return a < 0 && a + size - 1 >= 0 ? -size : a;
    }

    private static Arbitrary<Rec> call() {
        Arbitrary<Integer> type = Arbitraries.integers().between(0, 255).filter(CallType::isKnown);
        Arbitrary<Long> field = Arbitraries.longs().between(0, 0xFFFF_FFFFL);
        return Combinators.combine(type, field, field, field, field, field, field)
                .as((t, s, e, a1, a2, a3, a4) -> Rec.call(t, s, e, a1, a2, a3, a4));
    }

    private static Arbitrary<Rec> branch(long max, boolean hi) {
        Arbitrary<Long> high = hi ? Arbitraries.longs().between(0, 0xFFFF_FFFFL) : Arbitraries.just(0L);
        return Combinators.combine(Arbitraries.integers().between(0, 2), high,
                Arbitraries.longs().between(0, SmaitFormat.BRANCH_FIELD_MASK),
                Arbitraries.longs().between(0, 0xFFFF_FFFFL))
                .as((k, h, s, t) -> {
                    long src = (h << 32) | s;
                    long tgt = (h << 32) | t;
                    return k == 0 ? Rec.procStart(tgt) : k == 1 ? Rec.branch(src, tgt) : Rec.procCall(src, tgt);
                });
    }

    private static Arbitrary<Rec> fetch() {
        return Combinators.combine(addr(-1L), Arbitraries.integers().between(1, 0xFFFF))
                .as((a, s) -> Rec.fetch(fit(a, s), s));
    }

    @Property(tries = 60)
    void classicWriteThenRead_isIdentity(@ForAll("classicTraces") List<Rec> recs,
            @ForAll boolean little, @ForAll Codec codec, @ForAll("mapSizes") long map) throws IOException {
        ByteOrder order = little ? ByteOrder.LITTLE_ENDIAN : ByteOrder.BIG_ENDIAN;
        Path f = Files.createTempFile("prop", ".t");
        try {
            Rec.write(f, new TraceWriter.Options().order(order).codec(codec).bufferBytes(48), recs);
            if (recs.isEmpty()) {
                return; // an empty classic file is an error of its own (see BadInputTest)
            }
            assertEquals(recs, Rec.readAll(f, new TraceReader.Options().order(order).bufferBytes(200).mapBytes(map)));
        } finally {
            Files.delete(f);
        }
    }

    @Property(tries = 60)
    void addr64WriteThenRead_isIdentity(@ForAll("addr64Traces") List<Rec> recs,
            @ForAll boolean little, @ForAll Codec codec, @ForAll("mapSizes") long map) throws IOException {
        ByteOrder order = little ? ByteOrder.LITTLE_ENDIAN : ByteOrder.BIG_ENDIAN;
        Path f = Files.createTempFile("prop", ".t");
        try {
            Rec.write(f, new TraceWriter.Options().order(order).codec(codec).addr64(true).bufferBytes(96), recs);
            assertEquals(recs, Rec.readAll(f, new TraceReader.Options().bufferBytes(200).mapBytes(map)));
            try (TraceReader r = TraceReader.open(f, new TraceReader.Options().mapBytes(map))) {
                long offset = 8;
                while (r.next() != RecordKind.EOF) {
                    if (r.offset() < offset) {
                        throw new AssertionError("offsets go back: " + r.offset() + " after " + offset);
                    }
                    offset = r.offset() + (r.kind() == RecordKind.CALL ? 48 : 8);
                }
                assertEquals(recs.size(), r.records());
                assertEquals(Files.size(f), codec == Codec.NONE ? offset : Files.size(f));
            }
        } finally {
            Files.delete(f);
        }
    }

    @Property(tries = 60)
    void batchAndRunReading_returnTheSameRecordsAsNext(@ForAll("addr64Traces") List<Rec> recs, @ForAll boolean addr64,
            @ForAll boolean little, @ForAll Codec codec, @ForAll("batchSizes") int max, @ForAll boolean zeroCopy,
            @ForAll("mapSizes") long map) throws IOException {
        ByteOrder order = little ? ByteOrder.LITTLE_ENDIAN : ByteOrder.BIG_ENDIAN;
        List<Rec> trace = addr64 ? recs : recs.stream().filter(r -> !Rec.needs64(r)).collect(java.util.stream.Collectors.toList());
        if (trace.isEmpty()) {
            return;
        }
        Path f = Files.createTempFile("prop", ".t");
        try {
            TraceWriter.Options wo = new TraceWriter.Options().order(order).codec(codec).bufferBytes(96);
            Rec.write(f, addr64 ? wo.addr64(true) : wo.extended(true), trace);
            List<Rec> batched = new java.util.ArrayList<>();
            long[] words = new long[max + 3];
            try (TraceReader r = TraceReader.open(f, new TraceReader.Options().bufferBytes(200).mapBytes(map))) {
                for (;;) {
                    int n = zeroCopy ? r.nextRun(max) : r.nextBatch(words, 3, max);
                    if (n == 0) {
                        if (r.next() == RecordKind.EOF) {
                            break;
                        }
                        batched.add(Rec.of(r));
                        continue;
                    }
                    long[] src = zeroCopy ? r.runWords() : words;
                    int from = zeroCopy ? r.runStart() : 3;
                    for (int i = from; i < from + n; i++) {
                        batched.add(Rec.word(src[i], r.addressHigh()));
                    }
                    assertEquals(batched.get(batched.size() - 1), Rec.of(r), "accessors describe the last word");
                }
                assertEquals(trace.size(), r.records());
            }
            assertEquals(trace, batched);
        } finally {
            Files.delete(f);
        }
    }

    @Provide
    Arbitrary<Integer> batchSizes() {
        return Arbitraries.integers().between(1, 40);
    }
}
