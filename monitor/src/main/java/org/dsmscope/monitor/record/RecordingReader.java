package org.dsmscope.monitor.record;

import static org.dsmscope.monitor.record.RecordingFormat.unzig;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.TreeMap;
import java.util.zip.CRC32;
import org.dsmscope.monitor.event.EventBuffer;
import org.dsmscope.monitor.event.HostInfo;

/**
 * Streams a "DSMSCOPE-REC" recording (versions 1 and 2) chunk by chunk ({@link RecordingFormat}). Damage (a truncated file, a bad
 * block length, a checksum mismatch) ends reading at the last good block: in strict mode the next call throws a
 * {@link RecordingException} naming the file and byte offset; in lenient mode {@link #damage()} says what and
 * where, and everything before it has been delivered.
 */
public final class RecordingReader implements AutoCloseable {
    private final Path file;
    private final FileChannel ch;
    private final long size;
    private final boolean lenient;
    private final TreeMap<Integer, String> processes = new TreeMap<>();
    private final List<String> notes = new ArrayList<>();
    private final TreeMap<Integer, HostInfo> hosts = new TreeMap<>();
    private final List<Line> lines = new ArrayList<>();
    private final CRC32 crc = new CRC32();
    private long pos = RecordingFormat.HEADER;
    private long indexAt = -1;
    private boolean complete;
    private String damage;
    private EventBuffer chunk = new EventBuffer(1024);
    private ByteBuffer io = ByteBuffer.allocate(1 << 16);

    private RecordingReader(Path file, boolean lenient) throws IOException {
        this.file = file;
        this.lenient = lenient;
        this.ch = FileChannel.open(file, StandardOpenOption.READ);
        this.size = ch.size();
        ByteBuffer h = ByteBuffer.allocate(RecordingFormat.HEADER);
        readFully(h, 0);
        byte[] magic = new byte[RecordingFormat.MAGIC.length];
        h.flip();
        if (h.remaining() < RecordingFormat.HEADER) {
            ch.close();
            throw new RecordingException(file + ": byte 0: not a dsmscope recording (file too short)");
        }
        h.get(magic);
        if (!Arrays.equals(magic, RecordingFormat.MAGIC)) {
            ch.close();
            throw new RecordingException(file + ": byte 0: not a dsmscope recording (no DSMSCOPE-REC header)");
        }
        int version = h.getShort() & 0xFFFF;
        if (version < RecordingFormat.OLDEST || version > RecordingFormat.VERSION) {
            ch.close();
            throw new RecordingException(file + ": byte 12: unsupported recording version " + version);
        }
        int flags = h.getShort() & 0xFFFF;
        if (flags != 0) {
            ch.close();
            throw new RecordingException(String.format("%s: byte 14: unknown recording flags 0x%04x (version %d"
                    + " defines none)", file, flags, version));
        }
        if (size >= RecordingFormat.HEADER + RecordingFormat.TRAILER) {
            ByteBuffer t = ByteBuffer.allocate(RecordingFormat.TRAILER);
            readFully(t, size - RecordingFormat.TRAILER);
            t.flip();
            long at = t.getLong();
            byte[] tm = new byte[8];
            t.get(tm);
            if (Arrays.equals(tm, RecordingFormat.TRAILER_MAGIC) && at >= RecordingFormat.HEADER && at < size) {
                indexAt = at;
            }
        }
    }

    /** Opens a recording; strict: damage throws when reached. */
    public static RecordingReader open(Path file) throws IOException {
        return new RecordingReader(file, false);
    }

    /** Opens a recording; lenient: damage ends the stream and is reported by {@link #damage()}. */
    public static RecordingReader openLenient(Path file) throws IOException {
        return new RecordingReader(file, true);
    }

    private void readFully(ByteBuffer b, long at) throws IOException {
        while (b.hasRemaining()) {
            int n = ch.read(b, at);
            if (n < 0) {
                return;
            }
            at += n;
        }
    }

    /** Process names by id, complete once the stream has been read. */
    public TreeMap<Integer, String> processes() {
        return processes;
    }

    /** One line of a process's standard output or error ('O' block). */
    public static final class Line {
        /** Process id. */
        public final int proc;
        /** When it was written, ns since the epoch on the process's clock. */
        public final long time;
        /** {@link org.dsmscope.monitor.event.EventSink#STDOUT} or {@code STDERR}. */
        public final int stream;
        /** The text, without its line end. */
        public final String text;

        /** A line. */
        public Line(int proc, long time, int stream, String text) {
            this.proc = proc;
            this.time = time;
            this.stream = stream;
            this.text = text;
        }
    }

    /** Where each process runs, by id (version 2 recordings; empty for version 1), complete once read. */
    public TreeMap<Integer, HostInfo> hosts() {
        return hosts;
    }

    /** The output lines read so far, in the order they were recorded. */
    public List<Line> lines() {
        return lines;
    }

    /** Text notes found so far. */
    public List<String> notes() {
        return notes;
    }

    /** What damage ended reading (file, offset, problem), or null. */
    public String damage() {
        return damage;
    }

    /** True when the recording was closed properly (its index and trailer present). */
    public boolean complete() {
        return indexAt >= 0;
    }

    /** Byte offset of the next block. */
    public long position() {
        return pos;
    }

    /** The events of the current chunk (valid until the next call). */
    public EventBuffer chunk() {
        return chunk;
    }

    private void fail(long at, String what) {
        damage = file + ": byte " + at + ": " + what;
        if (!lenient) {
            throw new RecordingException(damage + " (the recording is readable up to this offset)");
        }
    }

    /** Loads the next chunk of events; false at the end (or at damage, in lenient mode). */
    public boolean nextChunk() throws IOException {
        while (!complete && damage == null) {
            long at = pos;
            long end = indexAt >= 0 ? indexAt : size;
            if (at == end && indexAt >= 0) {
                complete = true; // the index follows: it only serves seek()
                return false;
            }
            if (at + 5 > size) {
                if (at == size) {
                    complete = true;
                    if (indexAt < 0) {
                        fail(at, "recording ends without its index (truncated, or the recorder was stopped)");
                    }
                    return false;
                }
                fail(at, "truncated block header");
                return false;
            }
            ByteBuffer h = ByteBuffer.allocate(5);
            readFully(h, at);
            h.flip();
            byte tag = h.get();
            int len = h.getInt();
            if (tag != RecordingFormat.PROC && tag != RecordingFormat.CHUNK && tag != RecordingFormat.NOTE
                    && tag != RecordingFormat.INDEX && tag != RecordingFormat.HOST && tag != RecordingFormat.OUTPUT) {
                fail(at, "unknown block tag 0x" + Integer.toHexString(tag & 0xFF) + " (corrupt)");
                return false;
            }
            if (len < 0 || len > RecordingFormat.MAX_BLOCK || at + 9 + len > size) {
                fail(at, "block length " + Integer.toUnsignedString(len) + " runs past the end of the file"
                        + " (truncated or corrupt)");
                return false;
            }
            if (io.capacity() < len + 4) {
                io = ByteBuffer.allocate(len + 4);
            }
            io.clear().limit(len + 4);
            readFully(io, at + 5);
            io.flip();
            byte[] payload = io.array();
            crc.reset();
            crc.update(tag);
            crc.update(payload, 0, len);
            int stored = ByteBuffer.wrap(payload, len, 4).getInt();
            if (stored != (int) crc.getValue()) {
                fail(at, "checksum mismatch in block '" + (char) tag + "' (corrupt)");
                return false;
            }
            pos = at + 9 + len;
            if (tag == RecordingFormat.PROC) {
                int[] p = {0};
                int proc = (int) varLong(payload, p);
                int nl = ((payload[p[0]] & 0xFF) << 8) | (payload[p[0] + 1] & 0xFF);
                processes.put(proc, new String(payload, p[0] + 2, nl, StandardCharsets.UTF_8));
            } else if (tag == RecordingFormat.HOST || tag == RecordingFormat.OUTPUT) {
                try {
                    extension(tag, payload, len);
                } catch (IndexOutOfBoundsException ex) {
                    fail(at, "block '" + (char) tag + "' ends inside its fields (corrupt)");
                    return false;
                }
            } else if (tag == RecordingFormat.NOTE) {
                notes.add(new String(payload, 0, len, StandardCharsets.UTF_8));
            } else if (tag == RecordingFormat.INDEX) {
                complete = true;
                return false;
            } else {
                decodeChunk(payload, len, at);
                return damage == null;
            }
        }
        return false;
    }

    /** Decodes a version-2 host or output block. */
    private void extension(byte tag, byte[] b, int len) {
        int[] p = {0};
        int proc = (int) varLong(b, p);
        if (tag == RecordingFormat.HOST) {
            String host = string(b, p), arch = string(b, p), os = string(b, p), jvm = string(b, p);
            hosts.put(proc, new HostInfo(host, arch, os, (int) varLong(b, p), jvm));
        } else {
            long t = unzig(varLong(b, p));
            int stream = b[p[0]++];
            if (p[0] > len) {
                throw new ArrayIndexOutOfBoundsException(p[0]);
            }
            lines.add(new Line(proc, t, stream, new String(b, p[0], len - p[0], StandardCharsets.UTF_8)));
        }
    }

    private static String string(byte[] b, int[] p) {
        int n = ((b[p[0]] & 0xFF) << 8) | (b[p[0] + 1] & 0xFF);
        String s = new String(b, p[0] + 2, n, StandardCharsets.UTF_8);
        p[0] += 2 + n;
        return s;
    }

    private void decodeChunk(byte[] c, int len, long at) {
        int[] p = {0};
        int n = (int) varLong(c, p);
        if (n < 0 || n > len) {
            fail(at, "bad chunk event count " + n);
            return;
        }
        if (chunk.capacity() < n) {
            chunk = new EventBuffer(Math.max(n, chunk.capacity() * 2));
        }
        chunk.clear();
        long prev = 0;
        try {
            for (int i = 0; i < n; i++) {
                int type = c[p[0]++];
                int proc = (int) varLong(c, p);
                long t = prev + unzig(varLong(c, p));
                int peer = (int) unzig(varLong(c, p));
                long a = unzig(varLong(c, p));
                long b = unzig(varLong(c, p));
                long cc = unzig(varLong(c, p));
                long d = unzig(varLong(c, p));
                long e = unzig(varLong(c, p));
                chunk.add(t, proc, type, peer, a, b, cc, d, e);
                prev = t;
            }
        } catch (ArrayIndexOutOfBoundsException ex) {
            fail(at, "chunk ends inside an event (corrupt)");
        }
    }

    private static long varLong(byte[] b, int[] p) {
        long v = 0;
        int shift = 0;
        int i = p[0];
        while (true) {
            byte x = b[i++];
            v |= (long) (x & 0x7F) << shift;
            if (x >= 0) {
                break;
            }
            shift += 7;
        }
        p[0] = i;
        return v;
    }

    /**
     * Positions the stream at the first chunk that may hold events at or after {@code time} (uses the index; a
     * recording without an index is read from the start). Chunks hold several processes' batches, so events
     * before {@code time} can still follow.
     */
    public void seek(long time) throws IOException {
        if (indexAt < 0) {
            pos = RecordingFormat.HEADER;
            return;
        }
        ByteBuffer h = ByteBuffer.allocate(5);
        readFully(h, indexAt);
        h.flip();
        h.get();
        int len = h.getInt();
        if (len < 0 || len > RecordingFormat.MAX_BLOCK || indexAt + 5 + len > size) {
            // a corrupt index: read from the start, as without one (the blocks' own checks find the damage)
            pos = RecordingFormat.HEADER;
            return;
        }
        ByteBuffer body = ByteBuffer.allocate(len);
        readFully(body, indexAt + 5);
        byte[] x = body.array();
        int[] p = {0};
        int n = (int) varLong(x, p);
        long target = -1;
        for (int i = 0; i < n; i++) {
            long off = varLong(x, p);
            varLong(x, p);
            long max = unzig(varLong(x, p));
            varLong(x, p);
            if (max >= time && target < 0) {
                target = off;
            }
        }
        // process-name blocks precede chunks; re-read them so names stay known after a seek
        pos = RecordingFormat.HEADER;
        lines.clear();
        while (pos < (target < 0 ? indexAt : target) && nextChunk()) {
            continue;
        }
        pos = target < 0 ? indexAt : target;
        complete = false;
    }

    /** Reads a whole recording into one buffer (small recordings and tests). */
    public static EventBuffer readAll(Path file) throws IOException {
        try (RecordingReader r = open(file)) {
            return r.drain();
        }
    }

    /** Reads every remaining event into one buffer. */
    public EventBuffer drain() throws IOException {
        List<EventBuffer> parts = new ArrayList<>();
        int total = 0;
        while (nextChunk()) {
            parts.add(chunk.copy());
            total += chunk.size();
        }
        EventBuffer all = new EventBuffer(Math.max(1, total));
        for (EventBuffer b : parts) {
            for (int i = 0; i < b.size(); i++) {
                all.addFrom(b, i);
            }
        }
        return all;
    }

    @Override
    public void close() throws IOException {
        ch.close();
    }
}
