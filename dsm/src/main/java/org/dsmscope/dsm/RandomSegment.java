package org.dsmscope.dsm;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * A random-access segment (seed 002 §3.1): bytes addressed by offset. The first write after a consistency point
 * makes a twin; {@code putUpdates} sends the diff against the twin. Updates from another writer arriving while
 * this member has written are false sharing (§3.2): they are merged into both the data and the twin, so each
 * side's next diff carries only its own bytes.
 */
public final class RandomSegment extends Segment {
    private static final VarHandle DOUBLES = MethodHandles.byteArrayViewVarHandle(double[].class, ByteOrder.BIG_ENDIAN);
    private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.BIG_ENDIAN);
    private final byte[] data;
    private byte[] twin;
    private final Dsm dsm;

    RandomSegment(Dsm dsm, int id, Consistency c, long base, int size, int owner) {
        super(id, SegmentType.RANDOM, c, base, size, owner);
        this.dsm = dsm;
        this.data = new byte[size];
    }

    private void writing() {
        if (twin == null) {
            twin = data.clone();
            dsm.firstWrite(this);
        }
    }

    /** Reads the double at byte offset {@code off}. */
    public synchronized double getDouble(int off) {
        return (double) DOUBLES.get(data, off);
    }

    /** Writes the double at byte offset {@code off}. */
    public synchronized void putDouble(int off, double v) {
        writing();
        DOUBLES.set(data, off, v);
    }

    /** Reads the long at byte offset {@code off}. */
    public synchronized long getLong(int off) {
        return (long) LONGS.get(data, off);
    }

    /** Writes the long at byte offset {@code off}. */
    public synchronized void putLong(int off, long v) {
        writing();
        LONGS.set(data, off, v);
    }

    /** Copies {@code n} doubles starting at byte offset {@code off} into {@code dst[from..]}. */
    public synchronized void readDoubles(int off, double[] dst, int from, int n) {
        for (int i = 0; i < n; i++) {
            dst[from + i] = (double) DOUBLES.get(data, off + 8 * i);
        }
    }

    /** Writes {@code n} doubles from {@code src[from..]} at byte offset {@code off}. */
    public synchronized void writeDoubles(int off, double[] src, int from, int n) {
        writing();
        for (int i = 0; i < n; i++) {
            DOUBLES.set(data, off + 8 * i, src[from + i]);
        }
    }

    /** A copy of bytes [off, off+n). */
    public synchronized byte[] read(int off, int n) {
        return java.util.Arrays.copyOfRange(data, off, off + n);
    }

    /** Writes bytes at {@code off}. */
    public synchronized void write(int off, byte[] src) {
        writing();
        System.arraycopy(src, 0, data, off, src.length);
    }

    @Override
    synchronized boolean dirty() {
        return twin != null;
    }

    @Override
    synchronized byte[] takeLocal() {
        if (twin == null) {
            return null;
        }
        ByteBuffer out = ByteBuffer.allocate(16 + data.length + data.length / 2);
        out.putInt(0);
        int runs = 0;
        int i = 0;
        int n = data.length;
        while (i < n) {
            if (data[i] == twin[i]) {
                i++;
                continue;
            }
            int start = i;
            int lastDiff = i;
            while (i < n && i - lastDiff < 8) {
                if (data[i] != twin[i]) {
                    lastDiff = i;
                }
                i++;
            }
            int len = lastDiff - start + 1;
            if (out.remaining() < 8 + len) {
                ByteBuffer bigger = ByteBuffer.allocate(out.capacity() * 2 + len);
                out.flip();
                bigger.put(out);
                out = bigger;
            }
            out.putInt(start).putInt(len).put(data, start, len);
            runs++;
            i = lastDiff + 1;
        }
        twin = null;
        if (runs == 0) {
            return null;
        }
        out.putInt(0, runs);
        return java.util.Arrays.copyOf(out.array(), out.position());
    }

    @Override
    byte[] order(byte[] local) {
        return local;
    }

    @Override
    synchronized long[] apply(int writer, byte[] payload) {
        ByteBuffer in = ByteBuffer.wrap(payload);
        int runs = in.getInt();
        long merged = 0;
        long conflicts = 0;
        for (int r = 0; r < runs; r++) {
            int off = in.getInt();
            int len = in.getInt();
            for (int k = 0; k < len; k++) {
                byte v = in.get();
                int at = off + k;
                if (twin == null) {
                    data[at] = v;
                } else if (data[at] != twin[at]) {
                    if (v != data[at] && v != twin[at]) {
                        conflicts++;
                    }
                    twin[at] = v;
                } else {
                    data[at] = v;
                    twin[at] = v;
                    merged++;
                }
            }
        }
        return twin == null ? null : new long[] {merged, conflicts};
    }
}
