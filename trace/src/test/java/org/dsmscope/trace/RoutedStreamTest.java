package org.dsmscope.trace;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import org.junit.jupiter.api.Test;

/**
 * A routed stream's records ({@link RoutedWords}, {@link RoutedStream}): one-word and six-word gaps and positions,
 * run records and address-high changes, read from words handed over in process (run records trusted) and from the
 * same words as bytes (checked), in pieces of any size: the records, their fields and the offsets they report are
 * the ones written.
 */
class RoutedStreamTest {
    private static final int[] TYPES = {MemType.encode(MemType.LOAD, 4, 0), MemType.encode(MemType.STORE, 8, 1),
        MemType.encode(MemType.LOAD, 1, 0), MemType.encode(MemType.STORE, 2, 0)};

    /** One record as written: kind, address or call type, memory type or arg1, arg2 | arg3 << 32, offset. */
    private record Want(int kind, long a, long b, long c, long offset) {
    }

    /** A random routed stream; {@code want} gets its records. */
    private static long[] stream(Random r, List<Want> want) {
        long[] w = new long[200_000];
        int n = 0;
        w[n++] = (long) SmaitFormat.HEADER_MAGIC << 32 | SmaitFormat.headerWord(SmaitFormat.FLAG_ADDR64);
        long hi = 0;
        long placed = -1;
        for (int item = 0, items = r.nextInt(400); item < items && n < w.length - 5_000; item++) {
            int what = r.nextInt(6);
            if (what <= 1) {
                if (r.nextInt(4) == 0) {
                    hi = (long) r.nextInt(3) << 32;
                    w[n++] = (long) SmaitFormat.TAG_ADDR_HI << 32 | hi >>> 32;
                }
                int k = what == 0 ? 1 + r.nextInt(r.nextBoolean() ? 5 : 3_000) : 1;
                if (what == 0) {
                    w[n++] = RoutedWords.run(k);
                }
                for (int i = 0; i < k; i++) {
                    int type = TYPES[r.nextInt(TYPES.length)];
                    long low = r.nextInt() & 0xFFFFFFF8L;
                    long off = i == 0 && placed >= 0 ? placed : (long) n << 3;
                    want.add(new Want(RecordKind.MEMORY, hi | low, type, 0, off));
                    w[n++] = (long) type << 32 | low;
                }
                placed = -1;
            } else if (what == 2 || what == 3) {
                long count = 1 + r.nextInt(r.nextBoolean() ? 1 << 24 : 100);
                long bytes = r.nextInt(8) == 0 ? (1L << 32) + r.nextInt(1000) : r.nextInt() & 0xFFFFFFFFL;
                long one = what == 2 ? RoutedWords.gap(count, bytes) : -1;
                long off = placed >= 0 ? placed : (long) n << 3;
                if (one >= 0) {
                    w[n++] = one;
                } else {
                    n = call(w, n, CallType.ROUTED_GAP, count, bytes & 0xFFFFFFFFL, bytes >>> 32);
                }
                want.add(new Want(RecordKind.CALL, CallType.ROUTED_GAP, count, bytes, off));
                placed = -1;
            } else if (what == 4) {
                long arg = r.nextInt() & 0xFFFFFFFFL;
                want.add(new Want(RecordKind.CALL, CallType.BARRIER, arg, 0, placed >= 0 ? placed : (long) n << 3));
                n = call(w, n, CallType.BARRIER, arg, 0, 0);
                placed = -1;
            } else {
                placed = r.nextBoolean() ? r.nextLong() >>> 8 : r.nextLong() >>> 1;
                long one = RoutedWords.at(placed);
                if (one >= 0 && r.nextBoolean()) {
                    w[n++] = one;
                } else {
                    n = call(w, n, CallType.ROUTED_AT, placed & 0xFFFFFFFFL, placed >>> 32, 0);
                }
            }
        }
        want.add(new Want(RecordKind.EOF, 0, 0, 0, placed >= 0 ? placed : (long) n << 3));
        return Arrays.copyOf(w, n);
    }

    private static int call(long[] w, int n, int type, long a1, long a2, long a3) {
        long[] f = {0, 0, a1, a2, a3, 0};
        for (int i = 0; i < SmaitFormat.CALL_PARTS; i++) {
            w[n++] = (long) SmaitFormat.callTag(type, i) << 32 | f[i];
        }
        return n;
    }

    /** The words handed over in pieces of 1 to {@code max} words. */
    private static WordChannel words(long[] w, Random r, int max) {
        return new WordChannel() {
            private int at;

            @Override
            public int read(long[] dst, int off, int m) {
                if (at == w.length) {
                    return -1;
                }
                int k = Math.min(Math.min(m, w.length - at), 1 + r.nextInt(max));
                System.arraycopy(w, at, dst, off, k);
                at += k;
                return k;
            }
        };
    }

    private static TraceReader bytes(long[] w, TraceReader.Options o) throws IOException {
        ByteBuffer b = ByteBuffer.allocate(w.length * 8);
        b.asLongBuffer().put(w);
        return new TraceReader(Channels.newChannel(new java.io.ByteArrayInputStream(b.array())), "s", o);
    }

    /** A routed reader of {@code w}: form 0 words in random pieces, 1 bytes. */
    private static TraceReader open(int form, long[] w, Random r) throws IOException {
        return form == 0 ? new TraceReader(words(w, r, 1 + r.nextInt(3_000)), "s", routed()) : bytes(w, routed());
    }

    private static TraceReader.Options routed() {
        return TraceReader.Options.defaults().routedGaps(true).bufferBytes(512);
    }

    @Property(tries = 150)
    void routedStream_readOneByOne_givesTheRecordsFieldsAndOffsetsWritten(@ForAll long seed) throws IOException {
        Random r = new Random(seed);
        List<Want> want = new ArrayList<>();
        long[] w = stream(r, want);
        for (int form = 0; form < 2; form++) {
            try (TraceReader rd = open(form, w, r)) {
                for (Want x : want) {
                    int k = rd.next();
                    assertEquals(x.kind, k);
                    assertEquals(x.offset, rd.offset());
                    if (k == RecordKind.MEMORY) {
                        assertEquals(x.a, rd.address());
                        assertEquals(x.b, rd.memType());
                    } else if (k == RecordKind.CALL) {
                        assertEquals(x.a, rd.callType());
                        assertEquals(x.b, rd.arg(1));
                        assertEquals(x.c, rd.arg(2) | rd.arg(3) << 32);
                    }
                }
                assertEquals(want.size() - 1, rd.records());
            }
        }
    }

    @Property(tries = 150)
    void routedStream_readInRuns_givesTheWordsWritten(@ForAll long seed) throws IOException {
        Random r = new Random(seed);
        List<Want> want = new ArrayList<>();
        long[] w = stream(r, want);
        for (int form = 0; form < 2; form++) {
            try (TraceReader rd = open(form, w, r)) {
                int i = 0;
                while (i < want.size() - 1) {
                    boolean peek = r.nextBoolean();
                    int n = peek ? rd.peekRun(1 + r.nextInt(5_000)) : rd.nextRun(1 + r.nextInt(5_000));
                    if (n > 0) {
                        long[] ws = rd.runWords();
                        for (int j = 0; j < n; j++) {
                            Want x = want.get(i + j);
                            assertEquals(RecordKind.MEMORY, x.kind);
                            long word = ws[rd.runStart() + j];
                            assertEquals(x.a, rd.addressHigh() | (word & 0xFFFFFFFFL));
                            assertEquals(x.b, word >>> 32);
                        }
                        int take = peek ? r.nextInt(n + 1) : n;
                        if (peek) {
                            rd.skip(take);
                        }
                        i += take;
                        continue;
                    }
                    int k = rd.next();
                    assertEquals(want.get(i).kind, k);
                    i++;
                }
                assertEquals(RecordKind.EOF, rd.next());
            }
        }
    }

    /** A run record does not make a reader of bytes skip its check: a bad word inside a run is still found. */
    @Test
    void runRecordInBytes_badWordInside_isRefusedWithItsOffset() throws IOException {
        long[] w = {(long) SmaitFormat.HEADER_MAGIC << 32 | SmaitFormat.headerWord(SmaitFormat.FLAG_ADDR64),
            RoutedWords.run(3), (long) TYPES[0] << 32 | 64, 0x0000_0FFFL << 32 | 72, (long) TYPES[0] << 32 | 80};
        try (TraceReader rd = bytes(w, routed())) {
            assertEquals(RecordKind.MEMORY, rd.next());
            TraceFormatException e = assertThrows(TraceFormatException.class, rd::next);
            assertTrue(e.getMessage().contains("byte offset 24"), e.getMessage());
        }
    }

    /** Outside a routed replay's readers the one-word records are unknown tags. */
    @Test
    void routedWordsInATraceFile_areUnknownTags() throws IOException {
        long[] w = {(long) SmaitFormat.HEADER_MAGIC << 32 | SmaitFormat.headerWord(0), RoutedWords.gap(5, 40)};
        try (TraceReader rd = bytes(w, TraceReader.Options.defaults())) {
            TraceFormatException e = assertThrows(TraceFormatException.class, rd::next);
            assertTrue(e.getMessage().contains("byte offset 8: unknown record tag 30000005"), e.getMessage());
        }
    }
}
