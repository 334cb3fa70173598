package org.dsmscope.agent.core;

import java.io.IOException;
import java.nio.file.Path;
import org.dsmscope.trace.CallType;
import org.dsmscope.trace.SmaitFormat;
import org.dsmscope.trace.TraceWriter;

/**
 * The trace of one thread (seed 000 §2: one trace file per thread): a per-thread buffer of simple records that is
 * handed to the thread's {@link TraceWriter} when full, plus the thread's hook state.
 *
 * <p>Threading: only the owning thread appends records (no lock on the fast path). Handing the buffer to the
 * writer, and finishing the file, happen under this object's monitor, so the shutdown hook can finish the trace
 * of a thread that is still running: it writes the records appended so far, marks the trace closed, and the
 * owner then discards what it appends later. The agent never calls application code while holding this monitor.
 */
public final class ThreadTrace {
    /** Sentinel for threads that are not traced. */
    public static final ThreadTrace UNTRACED = new ThreadTrace();

    private static final int BUFFER_INTS = 1 << 15;
    /**
     * Entries of the per-thread address cache (a power of two; two-way: an object is found in slot
     * {@code hash & (CACHE - 1)} or its pair {@code ^ 1}). A column walk over a 512-row matrix meets 512 row objects
     * in turn: 1024 direct-mapped slots lost about a third of them to collisions at every sweep, each miss a
     * locked lookup in the shared table.
     */
    public static final int CACHE = 4096;

    /** Thread index: main = 0, others in start order; -1 if untraced. */
    public final int index;
    /** True if this thread is traced. */
    public final boolean traced;
    /** True while memory-access and branch records are written (level 2+, not stopped by a marker). */
    public volatile boolean detailed;
    /** Stopped by marker command 1. */
    boolean stoppedSelf;

    private final int[] buf;
    /**
     * Next free slot of {@link #buf}. The owner appends below it and then advances it with a release store
     * ({@link #advance}), so another thread that reads it with an acquire load ({@link #publish}) sees every record
     * below it complete; those slots do not change until the owner drains the buffer, under this monitor.
     */
    private int pos;
    /** Slots below this were handed over by {@link #publish} already (guarded by this monitor). */
    private int handed;
    /** Buffers drained so far (guarded by this monitor): the timer publishes only threads that drained none. */
    private long drains;
    private long drainsSeen;
    private static final sun.misc.Unsafe U = Layouts.unsafeOrNull();
    private static final long POS = U == null ? -1 : offset("pos");
    private long addrHi;
    private TraceWriter writer;
    /** The stream under the writer: full buffers go to it in bulk, after the writer's own buffer is flushed. */
    private java.io.OutputStream stream;
    private byte[] bytes;
    private final Path file;
    private boolean closed;
    private boolean ended;
    private long recordBytes;

    /** Direct-mapped cache of address-table entries by identity hash (weak references: keeps nothing alive). */
    public final WeakIdentityTable.Entry[] cache;
    /** Monitors held (synchronized), with depth, for outermost-only critical sections. */
    public final DepthMap monitors;
    /** j.u.c locks held, with depth. */
    public final DepthMap locks;
    /** Start time of a pending monitor enter or join (µs). */
    public long pendingStart;
    /** Level 3: source (return slot + 4) of the last return executed, 0 if none. */
    public int retSrc;
    /**
     * Reentrancy guard ("in agent"): set while this thread runs the agent's own code (hooks' bookkeeping, writing
     * records, rewriting classes), so the JDK classes instrumented with {@code jdk=true} do not trace the agent.
     */
    public boolean inHook;
    /** Data map rows of objects this thread gave addresses to, flushed to the sidecar in batches of {@link #OBJS}. */
    static final int OBJS = 512;
    long[] objAddr;
    long[] objSize;
    Class<?>[] objType;
    String[] objSite;
    int nObj;

    private ThreadTrace() {
        index = -1;
        traced = false;
        buf = null;
        file = null;
        cache = null;
        monitors = null;
        locks = null;
    }

    ThreadTrace(int index, Path file, TraceWriter writer, java.io.OutputStream stream, boolean detailed) {
        this.stream = stream;
        this.index = index;
        this.traced = true;
        this.file = file;
        this.writer = writer;
        this.detailed = detailed;
        this.buf = new int[BUFFER_INTS];
        this.cache = new WeakIdentityTable.Entry[CACHE];
        this.monitors = new DepthMap();
        this.locks = new DepthMap();
    }

    /** The file this trace is written to while the program runs (null when suppressed). */
    public Path file() {
        return file;
    }

    /** Uncompressed bytes of records produced so far. */
    public long recordBytes() {
        return recordBytes + 4L * pos;
    }

    /** Appends a memory-access record (type field of {@code org.dsmscope.trace.MemType}). */
    public void mem(int type, long address) {
        if ((address >>> 32) != addrHi) {
            setHi(address >>> 32);
        }
        int p = pos;
        if (p >= BUFFER_INTS) {
            p = drain();
        }
        buf[p] = type;
        buf[p + 1] = (int) address;
        advance(p + 2);
    }

    private static long offset(String field) {
        try {
            return U.objectFieldOffset(ThreadTrace.class.getDeclaredField(field));
        } catch (NoSuchFieldException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Sets {@link #pos} with release semantics (a plain store on x86: only the compiler may not reorder it). */
    private void advance(int p) {
        if (POS >= 0) {
            U.putOrderedInt(this, POS, p);
        } else {
            pos = p;
        }
    }

    /** Reads another thread's {@link #pos} with acquire semantics. */
    private int published() {
        return POS >= 0 ? U.getIntVolatile(this, POS) : pos;
    }

    private void setHi(long hi) {
        addrHi = hi;
        raw(SmaitFormat.TAG_ADDR_HI, (int) hi);
    }

    /** Appends one raw simple record. */
    public void raw(int f1, int f2) {
        int p = pos;
        if (p >= BUFFER_INTS) {
            p = drain();
        }
        buf[p] = f1;
        buf[p + 1] = f2;
        advance(p + 2);
    }

    /** Appends a branch-type record (procedure start 4, taken branch 8, procedure call C) over code addresses. */
    public void branch(int top, int source, int target) {
        raw((top << 28) | (source & 0x0FFFFFFF), target);
    }

    /** Appends a call record (seed 000 A.1); times in µs. */
    public void call(int type, long start, long end, long a1, long a2, long a3, long a4) {
        int p = pos;
        if (p + 12 > BUFFER_INTS) {
            p = drain();
        }
        int base = 0x00001000 | ((type & 0xFF) << 4);
        int[] b = buf;
        b[p] = base;
        b[p + 1] = (int) start;
        b[p + 2] = base | 1;
        b[p + 3] = (int) end;
        b[p + 4] = base | 2;
        b[p + 5] = (int) a1;
        b[p + 6] = base | 3;
        b[p + 7] = (int) a2;
        b[p + 8] = base | 4;
        b[p + 9] = (int) a3;
        b[p + 10] = base | 5;
        b[p + 11] = (int) a4;
        advance(p + 12);
    }

    /** Hands the full buffer to the writer; returns the new position (0). */
    private synchronized int drain() {
        if (!closed) {
            writeOut(handed, pos);
        }
        handed = 0;
        drains++;
        pos = 0;
        return 0;
    }

    /**
     * On-the-fly analysis: hands the records appended so far, and not yet handed over, to the writer and flushes
     * it, so the analysis can replay them while this thread is blocked or slow. Any thread may call it (the
     * owner before it blocks, the agent's timer); it takes only what the owner published ({@link #pos}).
     */
    public synchronized void publish() {
        int p = published();
        if (closed || p <= handed) {
            return;
        }
        writeOut(handed, p);
        handed = p;
        TraceWriter w = writer;
        if (w != null) {
            try {
                w.flush();
            } catch (RuntimeException e) {
                lost(e);
            }
        }
    }

    /**
     * On-the-fly analysis: publishes this thread's records, then appends the hint that it has begun an untimed join
     * of the thread with index {@code target} at {@code start} µs ({@code CallType.LIVE_JOIN}; the join record
     * follows when the join returns).
     */
    public synchronized void joinHint(int target, long start) {
        publish();
        if (closed || !(stream instanceof LiveStream)) {
            return;
        }
        java.nio.ByteBuffer b = java.nio.ByteBuffer.allocate(org.dsmscope.trace.SmaitFormat.CALL_BYTES);
        int base = 0x00001000 | (org.dsmscope.trace.CallType.LIVE_JOIN << 4);
        long[] v = {start, start, 0, 0, target, 0};
        for (int i = 0; i < v.length; i++) {
            b.putInt(base | i).putInt((int) v[i]);
        }
        ((LiveStream) stream).hint(b.array());
    }

    /** The timer's {@link #publish}: only if the thread drained no buffer since the last call (slow or blocked). */
    synchronized void publishIfIdle() {
        if (drains == drainsSeen) {
            publish();
        }
        drainsSeen = drains;
    }

    private void writeOut(int from, int to) {
        boolean was = TraceRuntime.enterAgent();
        try {
            writeRecords(from, to);
        } finally {
            TraceRuntime.leaveAgent(was);
        }
    }

    private void writeRecords(int from, int to) {
        int n = to - from;
        recordBytes += 4L * n;
        TraceWriter w = writer;
        if (w == null) {
            return;
        }
        try {
            if (stream != null && n >= 1024) {
                // bulk: the same big-endian simple records TraceWriter.raw would write, without a call per record
                w.flush();
                if (bytes == null) {
                    bytes = new byte[4 * BUFFER_INTS];
                }
                java.nio.ByteBuffer.wrap(bytes).asIntBuffer().put(buf, from, n);
                stream.write(bytes, 0, 4 * n);
            } else {
                int[] b = buf;
                for (int i = from; i + 1 < to; i += 2) {
                    w.raw(b[i], b[i + 1]);
                }
            }
        } catch (IOException | RuntimeException e) {
            lost(e);
        }
    }

    /**
     * A write failed (a full disk): the rest of this thread's trace is lost; the file keeps the records written
     * before and no end record, so that the replay refuses it as incomplete, and the run's end counts it.
     */
    private void lost(Exception e) {
        String m = String.valueOf(e.getMessage());
        String what = m.contains(file.toString()) ? m : file + ": " + m;
        TraceRuntime.warn("cannot write " + what + "; the rest of this thread's trace is lost");
        TraceRuntime.incomplete(what);
        writer = null;
    }

    /** Records the thread's end (extension type 20) and finishes the file. */
    public synchronized void threadEnded(long now) {
        if (closed || ended) {
            return;
        }
        ended = true;
        call(CallType.THREAD_END, now, now, 0, 0, index, 0);
        finish(now);
    }

    /** Writes the end trace record and closes the file; later records of the owner are discarded. */
    public synchronized void finish(long now) {
        if (closed) {
            return;
        }
        // A foreign thread (the shutdown hook) may finish while the owner still appends at pos: write what is
        // there, then the end record straight to the writer, never into the shared buffer.
        writeOut(handed, Math.max(handed, published()));
        TraceWriter w0 = writer;
        if (w0 != null) {
            try {
                // argument 2 = 1: the program ended while this thread still ran (no thread_end before)
                w0.call(CallType.END_TRACE, now, now, 0, ended ? 0 : 1, index, 0);
            } catch (RuntimeException e) {
                TraceRuntime.warn("cannot write " + file + ": " + e.getMessage());
            }
        }
        recordBytes += SmaitFormat.CALL_BYTES;
        closed = true;
        pos = 0;
        handed = 0;
        TraceWriter w = writer;
        writer = null;
        if (w != null) {
            try {
                w.close();
            } catch (IOException | RuntimeException e) {
                TraceRuntime.warn("cannot finish " + file + ": " + e.getMessage());
                TraceRuntime.incomplete(file + ": " + e.getMessage());
            }
        }
    }

    /** True once the file is finished. */
    public synchronized boolean closed() {
        return closed;
    }
}
