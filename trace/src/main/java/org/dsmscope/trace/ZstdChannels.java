package org.dsmscope.trace;

import com.github.luben.zstd.ZstdDirectBufferCompressingStreamNoFinalizer;
import com.github.luben.zstd.ZstdCompressCtx;
import com.github.luben.zstd.ZstdDirectBufferDecompressingStreamNoFinalizer;
import com.github.luben.zstd.EndDirective;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.ReadableByteChannel;
import java.nio.channels.WritableByteChannel;

/**
 * zstd frames over channels through zstd-jni's direct-buffer streams: the decompressor writes straight into the
 * reader's direct buffer and the compressor reads straight from the writer's, with no stream adapters or copies.
 */
final class ZstdChannels {
    private static final int IN_BYTES = 1 << 17;

    private ZstdChannels() {
    }

    /** Reads a zstd stream (one or more frames) from {@code raw} as decompressed bytes; needs direct targets. */
    static final class Reader implements ReadableByteChannel {
        private final ReadableByteChannel raw;
        private final ByteBuffer src = ByteBuffer.allocateDirect(IN_BYTES);
        private final ZstdDirectBufferDecompressingStreamNoFinalizer z;
        private boolean rawEof;
        private boolean done;

        Reader(ReadableByteChannel raw) {
            this.raw = raw;
            src.flip();
            z = new ZstdDirectBufferDecompressingStreamNoFinalizer(src) {
                @Override
                protected ByteBuffer refill(ByteBuffer b) {
                    b.compact();
                    try {
                        while (b.hasRemaining() && !rawEof) {
                            if (raw.read(b) < 0) {
                                rawEof = true;
                            }
                        }
                    } catch (IOException e) {
                        throw new UncheckedIOException(e);
                    }
                    b.flip();
                    return b;
                }
            };
        }

        @Override
        public int read(ByteBuffer dst) throws IOException {
            if (done) {
                return -1;
            }
            int total = 0;
            try {
                while (dst.hasRemaining()) {
                    if (!z.hasRemaining()) {
                        done = true;
                        break;
                    }
                    int n = z.read(dst);
                    total += n;
                    if (n == 0 && rawEof && !src.hasRemaining() && z.hasRemaining()) {
                        throw new IOException("truncated zstd stream (input ends inside a frame)");
                    }
                }
            } catch (UncheckedIOException e) {
                throw e.getCause();
            }
            return total == 0 && done ? -1 : total;
        }

        @Override
        public boolean isOpen() {
            return raw.isOpen();
        }

        @Override
        public void close() throws IOException {
            try {
                z.close();
            } finally {
                raw.close();
            }
        }
    }

    /**
     * Compresses everything written to it (direct sources) into one zstd frame on {@code raw}, with the frame's
     * content checksum (XXH64 of the records), which the reader's zstd library verifies at the end of the frame: a
     * flipped byte that still decodes is reported as a corrupt stream, not read as other addresses.
     */
    static final class Writer implements WritableByteChannel {
        private final WritableByteChannel raw;
        private final ZstdCompressCtx z;
        private final ByteBuffer target;
        private boolean open = true;

        Writer(WritableByteChannel raw, int level) {
            this.raw = raw;
            this.target = ByteBuffer.allocateDirect(
                    Math.max(1 << 17, ZstdDirectBufferCompressingStreamNoFinalizer.recommendedOutputBufferSize()));
            this.z = new ZstdCompressCtx().setLevel(level).setChecksum(true);
        }

        @Override
        public int write(ByteBuffer src) throws IOException {
            int n = src.remaining();
            ByteBuffer d = src;
            if (!src.isDirect()) {
                d = ByteBuffer.allocateDirect(n);
                d.put(src).flip();
            }
            while (d.hasRemaining()) {
                z.compressDirectByteBufferStream(target, d, EndDirective.CONTINUE);
                drain();
            }
            return n;
        }

        /** Writes the compressed bytes in {@link #target} to {@link #raw}. */
        private void drain() throws IOException {
            target.flip();
            while (target.hasRemaining()) {
                raw.write(target);
            }
            target.clear();
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
                ByteBuffer none = ByteBuffer.allocateDirect(0);
                boolean done;
                do {
                    done = z.compressDirectByteBufferStream(target, none, EndDirective.END);
                    drain();
                } while (!done);
            } finally {
                try {
                    z.close();
                } finally {
                    raw.close();
                }
            }
        }
    }
}
