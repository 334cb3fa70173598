package org.dsmscope.trace;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Test;

/** The writer's batch forms and the converter's bulk copy write exactly the bytes of record-by-record writing. */
class WriterBatchTest {

    @Provide
    Arbitrary<List<Rec>> traces() {
        return new WriterReaderPropertyTest().addr64Traces();
    }

    @Provide
    Arbitrary<Integer> bufferSizes() {
        return Arbitraries.of(48, 96, 200, 1 << 20);
    }

    @Property(tries = 80)
    void wordsAndCopy_writeTheSameBytes(@ForAll("traces") List<Rec> recs, @ForAll boolean little,
            @ForAll boolean addr64, @ForAll("bufferSizes") int buffer) throws IOException {
        ByteOrder order = little ? ByteOrder.LITTLE_ENDIAN : ByteOrder.BIG_ENDIAN;
        List<Rec> trace = addr64 ? recs : recs.stream().filter(r -> !Rec.needs64(r)).collect(java.util.stream.Collectors.toList());
        Path a = Files.createTempFile("batch", ".a");
        Path b = Files.createTempFile("batch", ".b");
        try {
            TraceWriter.Options o = new TraceWriter.Options().order(order).bufferBytes(buffer);
            o = addr64 ? o.addr64(true) : o.extended(true);
            Rec.write(a, o, trace);
            try (TraceReader r = TraceReader.open(a, new TraceReader.Options().bufferBytes(200));
                    TraceWriter w = TraceWriter.create(b, o)) {
                for (int i = 0;; i++) {
                    int n = r.nextRun(1 + i % 7);
                    if (n > 0) {
                        w.words(r.runWords(), r.runStart(), n, r.addressHigh());
                    } else if (r.next() != RecordKind.EOF) {
                        w.copy(r);
                    } else {
                        break;
                    }
                }
            }
            assertEquals(-1L, Files.mismatch(a, b));
            // the converter's bulk path: the same file again, in the other byte order and back
            Path c = Files.createTempDirectory("batch");
            try {
                TraceConverter.convert(TraceSet.of("a", List.of(a)), c.resolve("x").toString(),
                        new TraceWriter.Options().order(little ? ByteOrder.BIG_ENDIAN : ByteOrder.LITTLE_ENDIAN),
                        TraceConverter.Variant.SAME, TraceReader.Options.defaults());
                TraceConverter.convert(TraceSet.of("x", List.of(c.resolve("x.0"))), c.resolve("y").toString(),
                        new TraceWriter.Options().order(order), TraceConverter.Variant.SAME,
                        TraceReader.Options.defaults());
                // convert keeps every record and promises and writes the end record
                byte[] in = Files.readAllBytes(a);
                java.nio.ByteBuffer want = java.nio.ByteBuffer.allocate(in.length + SmaitFormat.SIMPLE).order(order);
                want.put(in).putInt(SmaitFormat.TAG_END).putInt(in.length / SmaitFormat.SIMPLE);
                want.put(little ? 4 : 7, (byte) (in[little ? 4 : 7] | SmaitFormat.FLAG_END));
                assertArrayEquals(want.array(), Files.readAllBytes(c.resolve("y.0")));
            } finally {
                for (String n : new String[] {"x.0", "y.0"}) {
                    Files.deleteIfExists(c.resolve(n));
                }
                Files.delete(c);
            }
        } finally {
            Files.delete(a);
            Files.delete(b);
        }
    }

    @Property(tries = 40)
    void rawPairs_writeTheSameBytesAsRawRecords(@ForAll("traces") List<Rec> recs, @ForAll boolean little,
            @ForAll("bufferSizes") int buffer) throws IOException {
        ByteOrder order = little ? ByteOrder.LITTLE_ENDIAN : ByteOrder.BIG_ENDIAN;
        Path a = Files.createTempFile("batch", ".a");
        Path b = Files.createTempFile("batch", ".b");
        try {
            Rec.write(a, new TraceWriter.Options().addr64(true), recs);
            ByteBuffer bytes = ByteBuffer.wrap(Files.readAllBytes(a));
            int[] fields = new int[bytes.capacity() / 4 + 3];
            bytes.asIntBuffer().get(fields, 3, bytes.capacity() / 4);
            TraceWriter.Options o = TraceWriter.Options.classic().order(order).bufferBytes(buffer);
            try (TraceWriter w = TraceWriter.create(a, o)) {
                for (int i = 3; i < fields.length; i += 2) {
                    w.raw(fields[i], fields[i + 1]);
                }
            }
            try (TraceWriter w = TraceWriter.create(b, o)) {
                for (int i = 3, k = 1; i < fields.length; i += 2 * k, k = k % 5 + 1) {
                    w.raw(fields, i, Math.min(k, (fields.length - i) / 2));
                }
            }
            assertEquals(-1L, Files.mismatch(a, b));
        } finally {
            Files.delete(a);
            Files.delete(b);
        }
    }

    @Test
    void words_refuseAHighWordAClassicWriterCannotHold_namingTheFirstWordsAddress() throws IOException {
        try (TraceWriter w = new TraceWriter(
                java.nio.channels.Channels.newChannel(new java.io.ByteArrayOutputStream()), "t.1.0",
                TraceWriter.Options.classic())) {
            long[] words = {0x40L << 32 | 0x1234, 0x181L << 32 | 0x10};
            w.words(words, 0, 2, 0);
            BadInputException e = assertThrows(BadInputException.class, () -> w.words(words, 1, 1, 5L << 32));
            assertEquals("t.1.0: address 0x500000010 does not fit in 32 bits; write the 64-bit variant (extended"
                    + " format with addr64)", e.getMessage());
        }
    }
}
