package org.dsmscope.monitor.record;

import java.nio.charset.StandardCharsets;

/**
 * Constants of the recording format "DSMSCOPE-REC" version 1 (documented in monitor/README.md): a 16-byte header,
 * CRC-checked blocks (process names, event chunks cut by time, notes, the chunk index) and a 16-byte trailer
 * pointing at the index, so a reader can seek by time; a file without its trailer is read block by block.
 */
public final class RecordingFormat {
    /** Format name at the start of the file. */
    public static final byte[] MAGIC = "DSMSCOPE-REC".getBytes(StandardCharsets.US_ASCII);
    /** Format version. */
    public static final int VERSION = 1;
    /** Header length in bytes: magic, u16 version, u16 flags. */
    public static final int HEADER = 16;
    /** Trailer magic after the index offset. */
    public static final byte[] TRAILER_MAGIC = "DSMRIDX1".getBytes(StandardCharsets.US_ASCII);
    /** Trailer length: u64 index offset + magic. */
    public static final int TRAILER = 16;
    /** Block tag: process id and name. */
    public static final byte PROC = 'P';
    /** Block tag: a chunk of events. */
    public static final byte CHUNK = 'C';
    /** Block tag: a text note (e.g. clock offsets, a stop reason). */
    public static final byte NOTE = 'N';
    /** Block tag: the chunk index. */
    public static final byte INDEX = 'X';
    /** Largest block payload a reader accepts. */
    public static final int MAX_BLOCK = 64 << 20;

    private RecordingFormat() {
    }

    /** Appends an unsigned LEB128 varint; returns the new position. */
    static int putVarLong(byte[] buf, int pos, long v) {
        while ((v & ~0x7FL) != 0) {
            buf[pos++] = (byte) ((v & 0x7F) | 0x80);
            v >>>= 7;
        }
        buf[pos++] = (byte) v;
        return pos;
    }

    /** Zigzag-encodes a signed value. */
    static long zig(long v) {
        return (v << 1) ^ (v >> 63);
    }

    /** Decodes a zigzag value. */
    static long unzig(long v) {
        return (v >>> 1) ^ -(v & 1);
    }
}
