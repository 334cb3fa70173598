package org.dsmscope.trace;

import com.github.luben.zstd.ZstdInputStream;
import com.github.luben.zstd.ZstdOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.channels.Channels;
import java.nio.channels.ReadableByteChannel;
import java.nio.channels.WritableByteChannel;

/**
 * Whole-file compression of a trace ("compressed" trace type). A compressed file is one standard zstd or LZ4
 * frame stream around the SMAIT record stream; readers recognize it by the frame magic, which no SMAIT record
 * starts with. {@link #encode(WritableByteChannel)} and {@link #decode(ReadableByteChannel)} work block by block
 * between direct buffers ({@code ZstdChannels}, {@code Lz4FrameChannels}); the stream views are for convenience.
 * zstd is the default: at level 1 it compresses traces 2&ndash;8&times; better than LZ4 and decodes nearly as fast
 * (measured figures in the trace module README).
 */
public enum Codec {
    /** Uncompressed. */
    NONE,
    /** Zstandard (zstd-jni). */
    ZSTD,
    /** LZ4 frame format (the maintained at.yawk.lz4 fork of lz4-java). */
    LZ4;

    /** The codec used when the user asks for "compressed" without naming one. */
    public static final Codec DEFAULT_COMPRESSED = ZSTD;

    /** zstd level used when writing. */
    public static final int ZSTD_LEVEL = 1;

    /** Detects a codec from the first four bytes of a file (fewer bytes → NONE). */
    public static Codec detect(byte[] head, int n) {
        if (n >= 4) {
            if ((head[0] & 0xff) == 0x28 && (head[1] & 0xff) == 0xB5 && (head[2] & 0xff) == 0x2F
                    && (head[3] & 0xff) == 0xFD) {
                return ZSTD;
            }
            if ((head[0] & 0xff) == 0x04 && (head[1] & 0xff) == 0x22 && (head[2] & 0xff) == 0x4D
                    && (head[3] & 0xff) == 0x18) {
                return LZ4;
            }
        }
        return NONE;
    }

    /** Parses a codec name (none, zstd, lz4), case-insensitive. */
    public static Codec parse(String name) {
        for (Codec c : values()) {
            if (c.name().equalsIgnoreCase(name)) {
                return c;
            }
        }
        throw new BadInputException("unknown codec '" + name + "' (expected none, zstd or lz4)");
    }

    /** Wraps a raw output stream so that what is written to the result is compressed. */
    public OutputStream encode(OutputStream raw) throws IOException {
        switch (this) {
            case ZSTD: {
                ZstdOutputStream z = new ZstdOutputStream(raw, ZSTD_LEVEL);
                return z;
            }
            case LZ4:
                return Channels.newOutputStream(new Lz4FrameChannels.Writer(Channels.newChannel(raw)));
            default:
                return raw;
        }
    }

    /** Wraps a raw input stream so that reading the result decompresses. */
    public InputStream decode(InputStream raw) throws IOException {
        switch (this) {
            case ZSTD:
                return new ZstdInputStream(raw);
            case LZ4:
                return Channels.newInputStream(new Lz4FrameChannels.Reader(Channels.newChannel(raw)));
            default:
                return raw;
        }
    }

    /**
     * A channel that compresses what is written to it onto {@code raw} (closing it finishes the frame). Block by
     * block between direct buffers; write direct buffers for speed.
     */
    public WritableByteChannel encode(WritableByteChannel raw) throws IOException {
        switch (this) {
            case ZSTD:
                return new ZstdChannels.Writer(raw, ZSTD_LEVEL);
            case LZ4:
                return new Lz4FrameChannels.Writer(raw);
            default:
                return raw;
        }
    }

    /**
     * {@link #encode(WritableByteChannel)} for a writer that writes at most {@code pieceBytes} at a time: LZ4
     * then uses 64 KiB blocks instead of 256 KiB when the pieces are that small (a quarter of the direct memory;
     * thousands of a many-thread trace's writers are), zstd the same buffers.
     */
    public WritableByteChannel encode(WritableByteChannel raw, int pieceBytes) throws IOException {
        if (this == LZ4 && pieceBytes <= Lz4FrameChannels.SMALL_BLOCK) {
            return new Lz4FrameChannels.Writer(raw, Lz4FrameChannels.SMALL_BLOCK);
        }
        return encode(raw);
    }

    /** A channel that decompresses {@code raw}; reads into direct buffers (zstd requires them). */
    public ReadableByteChannel decode(ReadableByteChannel raw) throws IOException {
        switch (this) {
            case ZSTD:
                return new ZstdChannels.Reader(raw);
            case LZ4:
                return new Lz4FrameChannels.Reader(raw);
            default:
                return raw;
        }
    }
}
