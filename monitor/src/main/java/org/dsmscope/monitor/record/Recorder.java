package org.dsmscope.monitor.record;

import static org.dsmscope.monitor.record.RecordingFormat.putString;
import static org.dsmscope.monitor.record.RecordingFormat.putVarLong;
import static org.dsmscope.monitor.record.RecordingFormat.zig;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.WritableByteChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.zip.CRC32;
import org.dsmscope.monitor.event.EventBuffer;
import org.dsmscope.monitor.event.EventSink;
import org.dsmscope.monitor.event.HostInfo;

/**
 * The recorder of seed 002 §4.2 for post-mortem use: writes flushed event buffers, process names and hosts and output lines to a "DSMSCOPE-REC" v2 file
 * ({@link RecordingFormat}). Events are varint-encoded into chunks, a chunk is cut after {@link #CHUNK_EVENTS}
 * events or {@link #CHUNK_NANOS} of wall time; an index of chunks with their time ranges closes the file.
 *
 * <p>If writing fails (disk full) the recorder stops, says so once on its message stream and drops further
 * events; the application keeps running. Threading: all methods synchronize on the recorder.
 */
public final class Recorder implements EventSink, AutoCloseable {
    /** Events per chunk before it is cut. */
    public static final int CHUNK_EVENTS = 16384;
    /** Wall-clock span after which a chunk is cut (1 s). */
    public static final long CHUNK_NANOS = 1_000_000_000L;

    private final WritableByteChannel out;
    private final String label;
    private final PrintStream messages;
    private final CRC32 crc = new CRC32();
    private byte[] chunk = new byte[1 << 20];
    private int chunkLen;
    private int chunkCount;
    private long chunkMin = Long.MAX_VALUE;
    private long chunkMax = Long.MIN_VALUE;
    private long prevTime;
    private long chunkStartWall;
    private byte[] index = new byte[4096];
    private int indexLen;
    private int indexCount;
    private long position;
    private long events;
    private String failure;
    private boolean closed;

    /** Records into {@code file} (created or truncated); failures are reported on stderr. */
    public Recorder(Path file) throws IOException {
        this(FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.TRUNCATE_EXISTING), file.toString(), System.err);
    }

    /** Records into any channel (tests simulate a full disk with a failing one). */
    public Recorder(WritableByteChannel out, String label, PrintStream messages) {
        this.out = out;
        this.label = label;
        this.messages = messages;
        ByteBuffer h = ByteBuffer.allocate(RecordingFormat.HEADER);
        h.put(RecordingFormat.MAGIC).putShort((short) RecordingFormat.VERSION).putShort((short) 0).flip();
        write(h);
    }

    /** Events recorded so far. */
    public synchronized long events() {
        return events;
    }

    /** Why recording stopped, or null while it works. */
    public synchronized String failure() {
        return failure;
    }

    @Override
    public synchronized void process(int proc, String name) {
        byte[] n = name.getBytes(StandardCharsets.UTF_8);
        byte[] p = new byte[10 + 2 + n.length];
        int pos = putVarLong(p, 0, proc);
        p[pos++] = (byte) (n.length >> 8);
        p[pos++] = (byte) n.length;
        System.arraycopy(n, 0, p, pos, n.length);
        block(RecordingFormat.PROC, p, pos + n.length);
    }

    @Override
    public synchronized void host(int proc, HostInfo h) {
        byte[][] f = {utf8(h.host), utf8(h.arch), utf8(h.os), utf8(h.jvm)};
        byte[] p = new byte[20 + 4 * 2 + f[0].length + f[1].length + f[2].length + f[3].length];
        int pos = putVarLong(p, 0, proc);
        for (byte[] s : f) {
            pos = putString(p, pos, s);
        }
        pos = putVarLong(p, pos, Math.max(0, h.cores));
        block(RecordingFormat.HOST, p, pos);
    }

    @Override
    public synchronized void output(int proc, long time, int stream, String line) {
        byte[] n = utf8(line);
        byte[] p = new byte[21 + n.length];
        int pos = putVarLong(p, 0, proc);
        pos = putVarLong(p, pos, zig(time));
        p[pos++] = (byte) stream;
        System.arraycopy(n, 0, p, pos, n.length);
        block(RecordingFormat.OUTPUT, p, pos + n.length);
    }

    private static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    /** Writes a text note (for instance the clock offsets or why a member stopped). */
    public synchronized void note(String text) {
        byte[] n = text.getBytes(StandardCharsets.UTF_8);
        block(RecordingFormat.NOTE, n, n.length);
    }

    @Override
    public synchronized void accept(EventBuffer bb) {
        if (failure != null || closed) {
            return;
        }
        int n = bb.size();
        if (chunkCount == 0) {
            chunkStartWall = System.nanoTime();
        }
        for (int i = 0; i < n; i++) {
            if (chunkLen + 80 > chunk.length) {
                chunk = java.util.Arrays.copyOf(chunk, chunk.length * 2);
            }
            byte[] c = chunk;
            int p = chunkLen;
            long t = bb.time[i];
            c[p++] = bb.type[i];
            p = putVarLong(c, p, bb.proc[i]);
            p = putVarLong(c, p, zig(t - prevTime));
            p = putVarLong(c, p, zig(bb.peer[i]));
            p = putVarLong(c, p, zig(bb.a[i]));
            p = putVarLong(c, p, zig(bb.b[i]));
            p = putVarLong(c, p, zig(bb.c[i]));
            p = putVarLong(c, p, zig(bb.d[i]));
            p = putVarLong(c, p, zig(bb.e[i]));
            chunkLen = p;
            prevTime = t;
            if (t < chunkMin) {
                chunkMin = t;
            }
            if (t > chunkMax) {
                chunkMax = t;
            }
            if (++chunkCount >= CHUNK_EVENTS) {
                writeChunk();
            }
        }
        events += n;
        if (chunkCount > 0 && System.nanoTime() - chunkStartWall > CHUNK_NANOS) {
            writeChunk();
        }
    }

    @Override
    public synchronized void flush() {
        if (chunkCount > 0) {
            writeChunk();
        }
    }

    private void writeChunk() {
        byte[] head = new byte[10];
        int hl = putVarLong(head, 0, chunkCount);
        byte[] payload = new byte[hl + chunkLen];
        System.arraycopy(head, 0, payload, 0, hl);
        System.arraycopy(chunk, 0, payload, hl, chunkLen);
        long at = position;
        block(RecordingFormat.CHUNK, payload, payload.length);
        if (index.length - indexLen < 40) {
            index = java.util.Arrays.copyOf(index, index.length * 2);
        }
        int p = putVarLong(index, indexLen, at);
        p = putVarLong(index, p, zig(chunkMin));
        p = putVarLong(index, p, zig(chunkMax));
        indexLen = putVarLong(index, p, chunkCount);
        indexCount++;
        chunkLen = 0;
        chunkCount = 0;
        chunkMin = Long.MAX_VALUE;
        chunkMax = Long.MIN_VALUE;
        prevTime = 0;
    }

    private void block(byte tag, byte[] payload, int len) {
        if (failure != null || closed) {
            return;
        }
        crc.reset();
        crc.update(tag);
        crc.update(payload, 0, len);
        ByteBuffer bb = ByteBuffer.allocate(1 + 4 + len + 4);
        bb.put(tag).putInt(len).put(payload, 0, len).putInt((int) crc.getValue()).flip();
        write(bb);
    }

    private void write(ByteBuffer bb) {
        if (failure != null) {
            return;
        }
        try {
            while (bb.hasRemaining()) {
                position += out.write(bb);
            }
        } catch (IOException | RuntimeException ex) {
            failure = "recording " + label + " stopped at byte " + position + ": " + ex.getMessage()
                    + " (the application keeps running)";
            messages.println("dsmscope: " + failure);
            messages.flush();
        }
    }

    /** Writes the last chunk, the index and the trailer, and closes the file. */
    @Override
    public synchronized void close() throws IOException {
        if (closed) {
            return;
        }
        flush();
        byte[] head = new byte[10];
        int hl = putVarLong(head, 0, indexCount);
        byte[] payload = new byte[hl + indexLen];
        System.arraycopy(head, 0, payload, 0, hl);
        System.arraycopy(index, 0, payload, hl, indexLen);
        long at = position;
        block(RecordingFormat.INDEX, payload, payload.length);
        ByteBuffer t = ByteBuffer.allocate(RecordingFormat.TRAILER);
        t.putLong(at).put(RecordingFormat.TRAILER_MAGIC).flip();
        write(t);
        closed = true;
        try {
            out.close();
        } catch (IOException ex) {
            if (failure == null) {
                failure = "recording " + label + ": " + ex.getMessage();
                messages.println("dsmscope: " + failure);
            }
        }
    }
}
