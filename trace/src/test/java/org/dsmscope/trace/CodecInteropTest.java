package org.dsmscope.trace;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.github.luben.zstd.ZstdInputStream;
import com.github.luben.zstd.ZstdOutputStream;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.channels.ReadableByteChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.SplittableRandom;
import net.jpountz.lz4.LZ4FrameInputStream;
import net.jpountz.lz4.LZ4FrameOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The fast codec channels speak the standard frame formats: what the reference streams write, they read. */
class CodecInteropTest {
    @TempDir
    Path dir;

    private static byte[] sample(int n) {
        byte[] b = new byte[n];
        SplittableRandom r = new SplittableRandom(3);
        for (int i = 0; i < n; i++) {
            b[i] = (byte) (i % 97 < 60 ? i / 7 : r.nextInt());
        }
        return b;
    }

    private static byte[] readChannel(ReadableByteChannel ch) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteBuffer b = ByteBuffer.allocateDirect(100_000);
        while (ch.read(b) >= 0) {
            b.flip();
            byte[] a = new byte[b.remaining()];
            b.get(a);
            out.write(a);
            b.clear();
        }
        return out.toByteArray();
    }

    private static byte[] writeChannel(Codec c, byte[] data) throws IOException {
        return writeChannel(c, data, Integer.MAX_VALUE);
    }

    /** What {@code c} writes for {@code data} given in one piece, for a writer of pieces of at most {@code piece}. */
    private static byte[] writeChannel(Codec c, byte[] data, int piece) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (var ch = c.encode(Channels.newChannel(out), piece)) {
            ByteBuffer b = ByteBuffer.allocateDirect(data.length);
            b.put(data).flip();
            while (b.hasRemaining()) {
                ch.write(b);
            }
        }
        return out.toByteArray();
    }

    @Test
    void lz4FramesOfTheReferenceStream_withContentChecksum_areRead() throws IOException {
        byte[] data = sample(3_000_000);
        for (LZ4FrameOutputStream.BLOCKSIZE bs : LZ4FrameOutputStream.BLOCKSIZE.values()) {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            try (OutputStream o = new LZ4FrameOutputStream(out, bs, LZ4FrameOutputStream.FLG.Bits.BLOCK_INDEPENDENCE,
                    LZ4FrameOutputStream.FLG.Bits.CONTENT_CHECKSUM)) {
                o.write(data);
            }
            byte[] got = readChannel(Codec.LZ4.decode(Channels.newChannel(new ByteArrayInputStream(out.toByteArray()))));
            assertArrayEquals(data, got, bs.toString());
        }
    }

    @Test
    void lz4FramesWeWrite_areReadByTheReferenceStream() throws IOException {
        byte[] data = sample(1_000_003);
        byte[] z = writeChannel(Codec.LZ4, data);
        try (InputStream in = new LZ4FrameInputStream(new ByteArrayInputStream(z))) {
            assertArrayEquals(data, in.readAllBytes());
        }
        assertArrayEquals(data, readChannel(Codec.LZ4.decode(Channels.newChannel(new ByteArrayInputStream(z)))));
    }

    /**
     * A writer of small pieces (a trace writer with a 16 KiB buffer: the thousands of threads after the first 64)
     * writes 64 KiB blocks (block size code 4), a quarter of the direct memory of 256 KiB ones, which the reference
     * stream and our reader read back.
     */
    @Test
    void lz4FramesOfSmallWriters_use64KiBBlocks() throws IOException {
        byte[] data = sample(1_000_003);
        byte[] z = writeChannel(Codec.LZ4, data, 16 << 10);
        assertEquals(0x40, z[5] & 0x70, "block size code 4 in the frame descriptor");
        assertEquals(0x50, writeChannel(Codec.LZ4, data)[5] & 0x70, "256 KiB blocks otherwise");
        try (InputStream in = new LZ4FrameInputStream(new ByteArrayInputStream(z))) {
            assertArrayEquals(data, in.readAllBytes());
        }
        assertArrayEquals(data, readChannel(Codec.LZ4.decode(Channels.newChannel(new ByteArrayInputStream(z)))));
    }

    @Test
    void zstdBothWays() throws IOException {
        byte[] data = sample(2_000_001);
        byte[] z = writeChannel(Codec.ZSTD, data);
        try (InputStream in = new ZstdInputStream(new ByteArrayInputStream(z))) {
            assertArrayEquals(data, in.readAllBytes());
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (OutputStream o = new ZstdOutputStream(out, 3)) {
            o.write(data);
        }
        assertArrayEquals(data,
                readChannel(Codec.ZSTD.decode(Channels.newChannel(new ByteArrayInputStream(out.toByteArray())))));
    }

    @Test
    void corruptLz4Block_isDetectedByItsChecksum() throws IOException {
        Path f = dir.resolve("t");
        Rec.write(f, new TraceWriter.Options().codec(Codec.LZ4), List.of(Rec.load(4, 0, 1), Rec.load(4, 0, 2)));
        byte[] b = Files.readAllBytes(f);
        b[12] ^= 0x5A;
        Files.write(f, b);
        TraceFormatException e = assertThrows(TraceFormatException.class, () -> Rec.readAll(f, new TraceReader.Options()));
        assertTrue(e.what().contains("corrupt or truncated lz4 stream"), e.what());
    }

    @Test
    void emptyCompressedTrace_isAnEmptyTraceError() throws IOException {
        for (Codec c : new Codec[] {Codec.LZ4, Codec.ZSTD}) {
            Path f = dir.resolve("e" + c);
            Rec.write(f, new TraceWriter.Options().codec(c), List.of());
            TraceFormatException e = assertThrows(TraceFormatException.class, () -> TraceReader.open(f).close());
            assertEquals("empty trace file (no records)", e.what());
        }
    }

    @Test
    void tracesCompressedByTheLz4AndZstdTools_areRead() throws IOException, InterruptedException {
        Path f = dir.resolve("plain");
        List<Rec> recs = new java.util.ArrayList<>();
        for (int i = 0; i < 50_000; i++) {
            recs.add(Rec.load(8, 1, 0x1000 + 8L * (i % 777)));
        }
        Rec.write(f, TraceWriter.Options.classic(), recs);
        for (String[] tool : new String[][] {{"lz4", "-q", "-f"}, {"zstd", "-q", "-f", "-o"}}) {
            Path z = dir.resolve("z." + tool[0]);
            List<String> cmd = new java.util.ArrayList<>(List.of(tool));
            if (tool[0].equals("zstd")) {
                cmd.add(z.toString());
                cmd.add(f.toString());
            } else {
                cmd.add(f.toString());
                cmd.add(z.toString());
            }
            Process p;
            try {
                p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
            } catch (IOException e) {
                org.junit.jupiter.api.Assumptions.assumeTrue(false, tool[0] + " is not installed");
                return;
            }
            assertEquals(0, p.waitFor(), tool[0]);
            assertEquals(recs, Rec.readAll(z, new TraceReader.Options()), tool[0]);
        }
    }

    @Test
    void streamViews_roundTrip() throws IOException {
        byte[] data = sample(700_001);
        for (Codec c : Codec.values()) {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            try (OutputStream o = c.encode(out)) {
                o.write(data, 0, 1000);
                o.write(data, 1000, data.length - 1000);
            }
            try (InputStream in = c.decode(new ByteArrayInputStream(out.toByteArray()))) {
                assertArrayEquals(data, in.readAllBytes(), c.toString());
            }
        }
    }
}
