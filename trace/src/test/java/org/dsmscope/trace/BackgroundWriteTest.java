package org.dsmscope.trace;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.WritableByteChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.api.Test;

/** {@link TraceWriter.Options#background}: the same bytes as a synchronous writer, and I/O errors still surface. */
class BackgroundWriteTest {
    @TempDir
    Path dir;

    /** Enough records for many buffer swaps, of every kind, with the address-high records of the 64-bit variant. */
    private static void fill(TraceWriter w, int n) {
        long x = 12345;
        for (int i = 0; i < n; i++) {
            x = x * 6364136223846793005L + 1442695040888963407L;
            long addr = (x >>> 20) & (i % 1000 < 10 ? 0x1F_FFFF_FFFFL : 0xFFFF_FFF8L);
            switch ((int) ((x >>> 60) & 7)) {
                case 0: w.call(CallType.BEGIN_CRITICAL, i, i + 1, addr & 0xFFFF_FFFFL, 0, 0, 0); break;
                case 1: w.branch(addr & 0x0FFF_FFF0L, (addr & 0x0FFF_FFF0L) + 64); break;
                case 2: w.memory(MemType.STORE, 8, 1, addr); break;
                default: w.memory(MemType.LOAD, 4, 0, addr); break;
            }
        }
    }

    @ParameterizedTest
    @EnumSource(Codec.class)
    void backgroundWriter_writesTheSameBytes(Codec codec) throws IOException {
        Path a = dir.resolve("sync");
        Path b = dir.resolve("bg");
        long na;
        long nb;
        try (TraceWriter w = TraceWriter.create(a, new TraceWriter.Options().addr64(true).codec(codec))) {
            fill(w, 700_000);
            na = w.bytesWritten();
        }
        try (TraceWriter w = TraceWriter.create(b, new TraceWriter.Options().addr64(true).codec(codec)
                .background(true))) {
            fill(w, 700_000);
            nb = w.bytesWritten();
        }
        assertEquals(na, nb);
        assertArrayEquals(Files.readAllBytes(a), Files.readAllBytes(b));
    }

    @Test
    void smallFile_neverStartsAThread_andIsComplete() throws IOException {
        Path a = dir.resolve("small");
        long before = Thread.getAllStackTraces().keySet().stream()
                .filter(t -> t.getName().startsWith("dsmscope-trace-io")).count();
        try (TraceWriter w = TraceWriter.create(a, TraceWriter.Options.classic().background(true))) {
            w.memory(MemType.LOAD, 4, 0, 0x1000);
            long now = Thread.getAllStackTraces().keySet().stream()
                    .filter(t -> t.getName().startsWith("dsmscope-trace-io")).count();
            assertEquals(before, now);
        }
        assertEquals(8, Files.size(a));
    }

    @Test
    void ioErrorOnTheBackgroundThread_namesTheFile() {
        WritableByteChannel failing = new WritableByteChannel() {
            private long n;

            @Override
            public int write(ByteBuffer src) throws IOException {
                if ((n += src.remaining()) > 1 << 20) {
                    throw new IOException("No space left on device");
                }
                int k = src.remaining();
                src.position(src.limit());
                return k;
            }

            @Override
            public boolean isOpen() {
                return true;
            }

            @Override
            public void close() {
            }
        };
        UncheckedIOException e = assertThrows(UncheckedIOException.class, () -> {
            try (TraceWriter w = new TraceWriter(failing, "full.0", TraceWriter.Options.classic().background(true))) {
                for (int i = 0; i < 10_000_000; i++) {
                    w.memory(MemType.LOAD, 4, 0, i * 4L);
                }
            }
        });
        assertTrue(e.getMessage().startsWith("full.0: cannot write trace: No space left on device"), e.getMessage());
    }
}
