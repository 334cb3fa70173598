package org.dsmscope.monitor.record;

import java.nio.charset.StandardCharsets;

/**
 * Constants of the recording format "DSMSCOPE-REC" version 2 (documented in monitor/README.md): a 16-byte header,
 * CRC-checked blocks (process names and hosts, event chunks cut by time, output lines, notes, the chunk index) and a 16-byte trailer
 * pointing at the index, so a reader can seek by time; a file without its trailer is read block by block.
 */
public final class RecordingFormat {
    /** Format name at the start of the file. */
    public static final byte[] MAGIC = "DSMSCOPE-REC".getBytes(StandardCharsets.US_ASCII);
    /** Format version written: 2 adds the host ('H') and output ('O') blocks to version 1, which is still read. */
    public static final int VERSION = 2;
    /** Oldest version read. */
    public static final int OLDEST = 1;
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
    /** Block tag (version 2): where a process runs ({@link org.dsmscope.monitor.event.HostInfo}). */
    public static final byte HOST = 'H';
    /** Block tag (version 2): one line of a process's standard output or error. */
    public static final byte OUTPUT = 'O';
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

    /** Appends a u16 length and the UTF-8 bytes of {@code s} (cut to 65,535 bytes); returns the new position. */
    static int putString(byte[] buf, int pos, byte[] s) {
        int n = Math.min(s.length, 0xFFFF);
        buf[pos++] = (byte) (n >> 8);
        buf[pos++] = (byte) n;
        System.arraycopy(s, 0, buf, pos, n);
        return pos + n;
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
