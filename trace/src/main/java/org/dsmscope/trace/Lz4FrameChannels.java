package org.dsmscope.trace;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.ReadableByteChannel;
import java.nio.channels.WritableByteChannel;
import net.jpountz.lz4.LZ4Compressor;
import net.jpountz.lz4.LZ4Exception;
import net.jpountz.lz4.LZ4Factory;
import net.jpountz.lz4.LZ4SafeDecompressor;
import net.jpountz.xxhash.StreamingXXHash32;
import net.jpountz.xxhash.XXHash32;
import net.jpountz.xxhash.XXHashFactory;

/**
 * The standard LZ4 frame format (lz4 frame specification 1.6.x) over channels, block by block between direct
 * buffers with lz4-java's block codec: no per-block allocation and no stream adapters on the hot path.
 *
 * <p>Written frames: independent blocks of at most 256 KiB, each with its xxHash32 block checksum, and the frame's
 * xxHash32 content checksum of the uncompressed records; no content size. Read frames: any frame with independent
 * blocks (the lz4 tool's default), with or without block checksums and content checksum (both verified when
 * present: a flipped byte is a corrupt stream, never other records), concatenated frames and skippable frames.
 * Linked blocks are refused with a clear error.
 */
final class Lz4FrameChannels {
    static final int MAGIC = 0x184D2204;
    private static final int FLG_VERSION = 0x40;
    private static final int FLG_INDEPENDENT = 0x20;
    private static final int FLG_BLOCK_CHECKSUM = 0x10;
    private static final int FLG_CONTENT_SIZE = 0x08;
    private static final int FLG_CONTENT_CHECKSUM = 0x04;
    private static final int FLG_DICT_ID = 0x01;
    /** Block size code 5 = 256 KiB (the default), 4 = 64 KiB (small writers: {@link #SMALL_BLOCK}). */
    static final int BLOCK = 1 << 18;
    /** Block of a writer fed in small pieces (a trace writer with a buffer of at most this). */
    static final int SMALL_BLOCK = 1 << 16;

    private static final LZ4Factory LZ4 = LZ4Factory.fastestInstance();
    private static final XXHash32 XXH = XXHashFactory.fastestInstance().hash32();

    private Lz4FrameChannels() {
    }

    /** Reads an LZ4 frame stream from {@code raw} as decompressed bytes. */
    static final class Reader implements ReadableByteChannel {
        private final ReadableByteChannel raw;
        private final LZ4SafeDecompressor dec = LZ4.safeDecompressor();
        // sized for 64 KiB blocks; grown to the frame's block size by its header (and the input to a block's size)
        private ByteBuffer in = ByteBuffer.allocateDirect(SMALL_BLOCK + 64).order(ByteOrder.LITTLE_ENDIAN);
        private ByteBuffer out = ByteBuffer.allocateDirect(SMALL_BLOCK);
        private boolean rawEof;
        private boolean inFrame;
        private boolean done;
        private int flags;
        private StreamingXXHash32 content;
        private byte[] scratch;

        Reader(ReadableByteChannel raw) {
            this.raw = raw;
            in.flip();
            out.flip();
        }

        /** Makes at least {@code n} compressed bytes available in {@code in}; false at a clean end of input. */
        private boolean need(int n) throws IOException {
            if (in.remaining() >= n) {
                return true;
            }
            if (in.capacity() < n) {
                ByteBuffer bigger = ByteBuffer.allocateDirect(n + 64).order(ByteOrder.LITTLE_ENDIAN);
                bigger.put(in);
                bigger.flip();
                in = bigger;
            }
            in.compact();
            while (in.position() < n && !rawEof) {
                if (raw.read(in) < 0) {
                    rawEof = true;
                }
            }
            in.flip();
            return in.remaining() >= n;
        }

        private void needOrTruncated(int n, String what) throws IOException {
            if (!need(n)) {
                throw new IOException("truncated lz4 stream (input ends inside " + what + ")");
            }
        }

        private boolean frameHeader() throws IOException {
            for (;;) {
                if (!need(4)) {
                    if (in.hasRemaining()) {
                        throw new IOException("truncated lz4 stream (" + in.remaining() + " stray bytes at the end)");
                    }
                    return false;
                }
                int magic = in.getInt();
                if ((magic & 0xFFFFFFF0) == 0x184D2A50) {
                    needOrTruncated(4, "a skippable frame");
                    int len = in.getInt();
                    while (len > 0) {
                        needOrTruncated(1, "a skippable frame");
                        int k = Math.min(len, in.remaining());
                        in.position(in.position() + k);
                        len -= k;
                    }
                    continue;
                }
                if (magic != MAGIC) {
                    throw new IOException(String.format("not an lz4 frame (magic %08x)", magic));
                }
                needOrTruncated(3, "a frame header");
                int start = in.position();
                flags = in.get() & 0xFF;
                int bd = in.get() & 0xFF;
                if ((flags & 0xC0) != FLG_VERSION) {
                    throw new IOException("unsupported lz4 frame version");
                }
                if ((flags & FLG_INDEPENDENT) == 0) {
                    throw new IOException("lz4 frames with linked blocks are not supported (compress with"
                            + " independent blocks, the lz4 tool's default)");
                }
                int extra = ((flags & FLG_CONTENT_SIZE) != 0 ? 8 : 0) + ((flags & FLG_DICT_ID) != 0 ? 4 : 0);
                needOrTruncated(extra + 1, "a frame header");
                in.position(in.position() + extra);
                int hc = in.get() & 0xFF;
                int expect = (XXH.hash(in, start, 2 + extra, 0) >>> 8) & 0xFF;
                if (hc != expect) {
                    throw new IOException("lz4 frame header checksum mismatch");
                }
                int max = 1 << (8 + 2 * ((bd >>> 4) & 7));
                if (((bd >>> 4) & 7) < 4) {
                    throw new IOException("bad lz4 block size code " + ((bd >>> 4) & 7));
                }
                if (out.capacity() < max) {
                    out = ByteBuffer.allocateDirect(max);
                    out.flip();
                }
                if ((flags & FLG_CONTENT_CHECKSUM) != 0) {
                    content = XXHashFactory.fastestInstance().newStreamingHash32(0);
                } else {
                    content = null;
                }
                inFrame = true;
                return true;
            }
        }

        /**
         * Decompresses the next block into {@code dst} if it has room for a whole block (saving a copy), else into
         * {@code out}; returns the bytes put into {@code dst} directly, 0 if the block went to {@code out}, -1 at
         * the end of the stream.
         */
        private int nextBlock(ByteBuffer dst) throws IOException {
            for (;;) {
                if (!inFrame && !frameHeader()) {
                    return -1;
                }
                needOrTruncated(4, "a block header");
                int word = in.getInt();
                if (word == 0) {
                    inFrame = false;
                    if ((flags & FLG_CONTENT_CHECKSUM) != 0) {
                        needOrTruncated(4, "the content checksum");
                        int sum = in.getInt();
                        if (content != null && content.getValue() != sum) {
                            throw new IOException("lz4 content checksum mismatch");
                        }
                    }
                    continue;
                }
                boolean stored = word < 0;
                int len = word & 0x7FFFFFFF;
                if (len > out.capacity()) {
                    throw new IOException("lz4 block of " + len + " bytes exceeds the frame's block size");
                }
                int sumLen = (flags & FLG_BLOCK_CHECKSUM) != 0 ? 4 : 0;
                needOrTruncated(len + sumLen, "a block");
                int p = in.position();
                if (sumLen != 0 && XXH.hash(in, p, len, 0) != in.getInt(p + len)) {
                    throw new IOException("lz4 block checksum mismatch");
                }
                boolean direct = content == null && !stored && dst.isDirect() && dst.remaining() >= out.capacity();
                ByteBuffer target = direct ? dst : out;
                int at = direct ? dst.position() : 0;
                if (!direct) {
                    out.clear();
                }
                int n;
                if (stored) {
                    ByteBuffer src = in.duplicate();
                    src.limit(p + len);
                    out.put(src);
                    n = len;
                } else {
                    try {
                        n = dec.decompress(in, p, len, target, at, (direct ? dst.limit() : out.capacity()) - at);
                    } catch (LZ4Exception e) {
                        throw new IOException("corrupt lz4 block: " + e.getMessage());
                    }
                }
                in.position(p + len + sumLen);
                if (direct) {
                    dst.position(at + n);
                    return n;
                }
                out.position(0).limit(n);
                if (content != null) {
                    hashContent(n);
                }
                return 0;
            }
        }

        private void hashContent(int n) {
            if (scratch == null || scratch.length < n) {
                scratch = new byte[n];
            }
            out.duplicate().get(scratch, 0, n);
            content.update(scratch, 0, n);
        }

        @Override
        public int read(ByteBuffer dst) throws IOException {
            if (done) {
                return -1;
            }
            int total = 0;
            while (dst.hasRemaining()) {
                if (!out.hasRemaining()) {
                    int d = nextBlock(dst);
                    if (d < 0) {
                        done = true;
                        break;
                    }
                    if (d > 0 || !out.hasRemaining()) {
                        total += d;
                        continue;
                    }
                }
                int k = Math.min(out.remaining(), dst.remaining());
                if (k == out.remaining()) {
                    dst.put(out);
                } else {
                    int lim = out.limit();
                    out.limit(out.position() + k);
                    dst.put(out);
                    out.limit(lim);
                }
                total += k;
            }
            return total == 0 && done ? -1 : total;
        }

        @Override
        public boolean isOpen() {
            return raw.isOpen();
        }

        @Override
        public void close() throws IOException {
            raw.close();
        }
    }

    /** Writes an LZ4 frame (see the class comment) of everything written to it to {@code raw}. */
    static final class Writer implements WritableByteChannel {
        private final WritableByteChannel raw;
        private final LZ4Compressor comp = LZ4.fastCompressor();
        private final ByteBuffer block;
        private final int blockBytes;
        private final ByteBuffer out;
        /** The content checksum of the bytes written so far, and the heap copy it is fed from. */
        private final StreamingXXHash32 content = XXHashFactory.fastestInstance().newStreamingHash32(0);
        private byte[] scratch;
        private boolean open = true;

        Writer(WritableByteChannel raw) throws IOException {
            this(raw, BLOCK);
        }

        /**
         * With blocks of {@code blockBytes}: {@link #BLOCK} or {@link #SMALL_BLOCK} (a quarter of the direct memory,
         * for the thousands of small writers of a many-thread trace).
         */
        Writer(WritableByteChannel raw, int blockBytes) throws IOException {
            if (blockBytes != BLOCK && blockBytes != SMALL_BLOCK) {
                throw new IllegalArgumentException("lz4 block of " + blockBytes + " bytes");
            }
            this.raw = raw;
            this.blockBytes = blockBytes;
            this.block = ByteBuffer.allocateDirect(blockBytes);
            this.out = ByteBuffer.allocateDirect(comp.maxCompressedLength(blockBytes) + 16)
                    .order(ByteOrder.LITTLE_ENDIAN);
            out.putInt(MAGIC);
            out.put((byte) (FLG_VERSION | FLG_INDEPENDENT | FLG_BLOCK_CHECKSUM | FLG_CONTENT_CHECKSUM));
            out.put((byte) ((blockBytes == BLOCK ? 5 : 4) << 4));
            out.put((byte) ((XXH.hash(out, 4, 2, 0) >>> 8) & 0xFF));
        }

        @Override
        public int write(ByteBuffer src) throws IOException {
            int n = src.remaining();
            while (src.hasRemaining()) {
                if (block.position() == 0 && src.remaining() >= blockBytes && src.isDirect()) {
                    // a whole block in the caller's direct buffer: compress it from there, without a copy
                    emit(src, src.position(), blockBytes);
                    src.position(src.position() + blockBytes);
                    continue;
                }
                int k = Math.min(block.remaining(), src.remaining());
                int lim = src.limit();
                src.limit(src.position() + k);
                block.put(src);
                src.limit(lim);
                if (!block.hasRemaining()) {
                    emitBlock();
                }
            }
            return n;
        }

        private void emitBlock() throws IOException {
            int len = block.position();
            if (len == 0) {
                return;
            }
            emit(block, 0, len);
            block.clear();
        }

        /** Writes the {@code len} bytes of {@code src} at {@code from} as one block (compressed unless that grows it). */
        private void emit(ByteBuffer src, int from, int len) throws IOException {
            if (scratch == null || scratch.length < len) {
                scratch = new byte[blockBytes];
            }
            src.get(from, scratch, 0, len);
            content.update(scratch, 0, len);
            int at = out.position();
            int c = comp.compress(src, from, len, out, at + 4, out.capacity() - at - 8);
            if (c >= len) {
                ByteBuffer b = src.duplicate();
                b.limit(from + len).position(from);
                out.position(at + 4);
                out.put(b);
                out.putInt(at, 0x80000000 | len);
                out.putInt(XXH.hash(out, at + 4, len, 0));
            } else {
                out.putInt(at, c);
                out.position(at + 4 + c);
                out.putInt(XXH.hash(out, at + 4, c, 0));
            }
            drain();
        }

        private void drain() throws IOException {
            out.flip();
            while (out.hasRemaining()) {
                raw.write(out);
            }
            out.clear();
        }

        @Override
        public boolean isOpen() {
            return open;
        }

        @Override
        public void close() throws IOException {
            if (!open) {
                return;
            }
            open = false;
            try {
                emitBlock();
                out.putInt(0);
                out.putInt(content.getValue());
                drain();
            } finally {
                raw.close();
            }
        }
    }
}
