package org.dsmscope.agent.core;

/**
 * Block compression of the chunks a live stream spills ({@link LiveStream}): the agent's {@code codec} option, zstd
 * (level 1, the default) or lz4 (faster to compress and to read back, about twice the bytes on disk). One
 * {@link Packer} per stream (its producer, holding the stream's lock) and one {@link Unpacker} per reader, each
 * keeping its native context between chunks: making one per chunk costs more than compressing the chunk.
 */
abstract class SpillCodec {
    /** The codec named by the agent's {@code codec} option ({@code zstd} or {@code lz4}). */
    static SpillCodec of(String name) {
        return "lz4".equalsIgnoreCase(name) ? new Lz4() : new Zstd();
    }

    /** The file name extension of its segments. */
    abstract String extension();

    abstract Packer packer();

    abstract Unpacker unpacker();

    /** Compresses chunks. */
    interface Packer {
        /** Most bytes {@code len} raw bytes take packed. */
        int bound(int len);

        /** Packs {@code src[off..off+len)} into {@code dst}; returns the packed length. */
        int pack(byte[] src, int off, int len, byte[] dst);

        void close();
    }

    /** Decompresses chunks. */
    interface Unpacker {
        /** Unpacks {@code packed} bytes of {@code src} into {@code raw} bytes of {@code dst}; returns bytes made. */
        int unpack(byte[] src, int packed, byte[] dst, int raw);

        void close();
    }

    private static final class Zstd extends SpillCodec {
        @Override
        String extension() {
            return ".zst";
        }

        @Override
        Packer packer() {
            com.github.luben.zstd.ZstdCompressCtx c = new com.github.luben.zstd.ZstdCompressCtx().setLevel(1);
            return new Packer() {
                @Override
                public int bound(int len) {
                    return (int) com.github.luben.zstd.Zstd.compressBound(len);
                }

                @Override
                public int pack(byte[] src, int off, int len, byte[] dst) {
                    return c.compressByteArray(dst, 0, dst.length, src, off, len);
                }

                @Override
                public void close() {
                    c.close();
                }
            };
        }

        @Override
        Unpacker unpacker() {
            com.github.luben.zstd.ZstdDecompressCtx d = new com.github.luben.zstd.ZstdDecompressCtx();
            return new Unpacker() {
                @Override
                public int unpack(byte[] src, int packed, byte[] dst, int raw) {
                    return d.decompressByteArray(dst, 0, raw, src, 0, packed);
                }

                @Override
                public void close() {
                    d.close();
                }
            };
        }
    }

    private static final class Lz4 extends SpillCodec {
        private static final net.jpountz.lz4.LZ4Factory FACTORY = net.jpountz.lz4.LZ4Factory.fastestInstance();

        @Override
        String extension() {
            return ".lz4";
        }

        @Override
        Packer packer() {
            net.jpountz.lz4.LZ4Compressor c = FACTORY.fastCompressor();
            return new Packer() {
                @Override
                public int bound(int len) {
                    return c.maxCompressedLength(len);
                }

                @Override
                public int pack(byte[] src, int off, int len, byte[] dst) {
                    return c.compress(src, off, len, dst, 0, dst.length);
                }

                @Override
                public void close() {
                    // nothing native held
                }
            };
        }

        @Override
        Unpacker unpacker() {
            net.jpountz.lz4.LZ4SafeDecompressor d = FACTORY.safeDecompressor();
            return new Unpacker() {
                @Override
                public int unpack(byte[] src, int packed, byte[] dst, int raw) {
                    return d.decompress(src, 0, packed, dst, 0, raw);
                }

                @Override
                public void close() {
                    // nothing native held
                }
            };
        }
    }
}
