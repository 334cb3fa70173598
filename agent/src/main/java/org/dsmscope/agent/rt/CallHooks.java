package org.dsmscope.agent.rt;

import java.io.FileInputStream;
import java.io.FileOutputStream;
import java.io.RandomAccessFile;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.nio.channels.FileChannel;
import java.util.concurrent.BrokenBarrierException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.Phaser;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import org.dsmscope.agent.core.Addresses;
import org.dsmscope.agent.core.Layouts;
import org.dsmscope.agent.core.ThreadTrace;
import org.dsmscope.agent.core.TraceRuntime;
import org.dsmscope.trace.CallType;

/**
 * Level 1 entry points for barriers (type 03), latches and semaphores (extension types 23/24 with per-object
 * sequence numbers), atomic read-modify-writes (ldcw, 13), file reads and writes (11/12) and markers (10)
 * (seed 000 A.1, SPEC §3). Each performs or follows the program's own call unchanged and records it.
 */
public final class CallHooks {
    private static final AtomicInteger NEXT_HANDLE = new AtomicInteger(3);

    private static final ClassValue<Long> VALUE_OFFSET = new ClassValue<>() {
        @Override
        protected Long computeValue(Class<?> c) {
            for (Class<?> k = c; k != null; k = k.getSuperclass()) {
                for (Field f : k.getDeclaredFields()) {
                    if (!Modifier.isStatic(f.getModifiers()) && (f.getName().equals("value")
                            || f.getName().equals("array"))) {
                        return Layouts.fieldOffset(f);
                    }
                }
            }
            return 12L;
        }
    };

    private CallHooks() {
    }

    // ---- barriers ----

    /** {@code b.await()}. */
    public static int barrierAwait(CyclicBarrier b) throws InterruptedException, BrokenBarrierException {
        ThreadTrace t = TraceRuntime.current();
        if (!t.traced) {
            return b.await();
        }
        long t0 = TraceRuntime.now();
        TraceRuntime.blocking(t);
        int r = b.await();
        barrier(t, b, b.getParties(), t0);
        return r;
    }

    /** {@code b.await(time, unit)}. */
    public static int barrierAwait(CyclicBarrier b, long time, TimeUnit unit)
            throws InterruptedException, BrokenBarrierException, TimeoutException {
        ThreadTrace t = TraceRuntime.current();
        if (!t.traced) {
            return b.await(time, unit);
        }
        long t0 = TraceRuntime.now();
        TraceRuntime.blocking(t);
        int r = b.await(time, unit);
        barrier(t, b, b.getParties(), t0);
        return r;
    }

    /** {@code p.arriveAndAwaitAdvance()}. */
    public static int arriveAndAwaitAdvance(Phaser p) {
        ThreadTrace t = TraceRuntime.current();
        if (!t.traced) {
            return p.arriveAndAwaitAdvance();
        }
        long t0 = TraceRuntime.now();
        // The barrier's parties are the threads that await this phase: not the registered parties, which count
        // threads that arrive without waiting (arriveAndDeregister, arrive) and change while others wait. A
        // registered party's phase cannot advance before it arrives, so getPhase() here is its arrival phase.
        int phase = p.getPhase();
        SyncState st = null;
        try {
            if (phase >= 0) {
                st = SyncState.of(p);
                st.awaits(phase);
            }
        } catch (Throwable e) {
            st = null;
        }
        int r = p.arriveAndAwaitAdvance();
        int parties = st == null ? p.getRegisteredParties() : Math.max(1, st.waiters(phase));
        barrier(t, p, parties, t0);
        return r;
    }

    private static void barrier(ThreadTrace t, Object b, int parties, long t0) {
        try {
            t.call(CallType.BARRIER, t0, TraceRuntime.now(), Addresses.of(b, t), parties, 0, 0);
        } catch (Throwable e) {
            // recording only
        }
    }

    // ---- latches and semaphores ----

    private static long beforeRelease(ThreadTrace t, Object o) {
        if (!t.traced) {
            return 0;
        }
        try {
            return SyncState.of(o).nextRelease();
        } catch (Throwable e) {
            return 0;
        }
    }

    private static void record(ThreadTrace t, int type, Object o, long t0, long seq, long count) {
        if (!t.traced) {
            return;
        }
        try {
            t.call(type, t0, TraceRuntime.now(), Addresses.of(o, t), seq, count, 0);
        } catch (Throwable e) {
            // recording only
        }
    }

    private static long lastRelease(Object o) {
        try {
            return SyncState.of(o).lastRelease();
        } catch (Throwable e) {
            return 0;
        }
    }

    /** {@code l.countDown()}. */
    public static void countDown(CountDownLatch l) {
        ThreadTrace t = TraceRuntime.current();
        long t0 = TraceRuntime.now();
        long seq = beforeRelease(t, l);
        l.countDown();
        record(t, CallType.SYNC_RELEASE, l, t0, seq, 1);
    }

    /** {@code l.await()}. */
    public static void latchAwait(CountDownLatch l) throws InterruptedException {
        ThreadTrace t = TraceRuntime.current();
        long t0 = TraceRuntime.now();
        TraceRuntime.blocking(t);
        l.await();
        if (t.traced) {
            record(t, CallType.SYNC_ACQUIRE, l, t0, lastRelease(l), 1);
        }
    }

    /** {@code l.await(time, unit)}: recorded when the latch opened. */
    public static boolean latchAwait(CountDownLatch l, long time, TimeUnit unit) throws InterruptedException {
        ThreadTrace t = TraceRuntime.current();
        long t0 = TraceRuntime.now();
        TraceRuntime.blocking(t);
        boolean ok = l.await(time, unit);
        if (ok && t.traced) {
            record(t, CallType.SYNC_ACQUIRE, l, t0, lastRelease(l), 1);
        }
        return ok;
    }

    /** {@code s.release()}. */
    public static void release(Semaphore s) {
        release(s, 1);
    }

    /** {@code s.release(n)}. */
    public static void release(Semaphore s, int n) {
        ThreadTrace t = TraceRuntime.current();
        long t0 = TraceRuntime.now();
        long seq = n > 0 ? beforeRelease(t, s) : 0;
        s.release(n);
        record(t, CallType.SYNC_RELEASE, s, t0, seq, n);
    }

    private static void acquired(ThreadTrace t, Semaphore s, long t0, int n) {
        if (t.traced) {
            record(t, CallType.SYNC_ACQUIRE, s, t0, lastRelease(s), n);
        }
    }

    /** {@code s.acquire()}. */
    public static void acquire(Semaphore s) throws InterruptedException {
        long t0 = TraceRuntime.now();
        TraceRuntime.blocking(TraceRuntime.current());
        s.acquire();
        acquired(TraceRuntime.current(), s, t0, 1);
    }

    /** {@code s.acquire(n)}. */
    public static void acquire(Semaphore s, int n) throws InterruptedException {
        long t0 = TraceRuntime.now();
        TraceRuntime.blocking(TraceRuntime.current());
        s.acquire(n);
        acquired(TraceRuntime.current(), s, t0, n);
    }

    /** {@code s.acquireUninterruptibly()}. */
    public static void acquireUninterruptibly(Semaphore s) {
        long t0 = TraceRuntime.now();
        TraceRuntime.blocking(TraceRuntime.current());
        s.acquireUninterruptibly();
        acquired(TraceRuntime.current(), s, t0, 1);
    }

    /** {@code s.acquireUninterruptibly(n)}. */
    public static void acquireUninterruptibly(Semaphore s, int n) {
        long t0 = TraceRuntime.now();
        TraceRuntime.blocking(TraceRuntime.current());
        s.acquireUninterruptibly(n);
        acquired(TraceRuntime.current(), s, t0, n);
    }

    /** {@code s.tryAcquire()}. */
    public static boolean tryAcquire(Semaphore s) {
        long t0 = TraceRuntime.now();
        boolean ok = s.tryAcquire();
        if (ok) {
            acquired(TraceRuntime.current(), s, t0, 1);
        }
        return ok;
    }

    /** {@code s.tryAcquire(n)}. */
    public static boolean tryAcquire(Semaphore s, int n) {
        long t0 = TraceRuntime.now();
        boolean ok = s.tryAcquire(n);
        if (ok) {
            acquired(TraceRuntime.current(), s, t0, n);
        }
        return ok;
    }

    /** {@code s.tryAcquire(time, unit)}. */
    public static boolean tryAcquire(Semaphore s, long time, TimeUnit unit) throws InterruptedException {
        long t0 = TraceRuntime.now();
        boolean ok = s.tryAcquire(time, unit);
        if (ok) {
            acquired(TraceRuntime.current(), s, t0, 1);
        }
        return ok;
    }

    /** {@code s.tryAcquire(n, time, unit)}. */
    public static boolean tryAcquire(Semaphore s, int n, long time, TimeUnit unit) throws InterruptedException {
        long t0 = TraceRuntime.now();
        boolean ok = s.tryAcquire(n, time, unit);
        if (ok) {
            acquired(TraceRuntime.current(), s, t0, n);
        }
        return ok;
    }

    // ---- markers ----

    /** {@code Smait.marker(cmd, num)}: the api's own check, then a marker record and commands 1-4. */
    public static void marker(int cmd, int num) {
        if (cmd < 0 || cmd > 4) {
            throw new IllegalArgumentException("marker command must be 0..4, was " + cmd);
        }
        ThreadTrace t = TraceRuntime.current();
        if (t.traced) {
            long n = TraceRuntime.now();
            t.call(CallType.MARKER, n, n, cmd, num, 0, 0);
            TraceRuntime.marker(t, cmd);
        }
    }

    // ---- atomics (called by generated wrappers after the operation) ----

    /**
     * An atomic read-modify-write on {@code target} (an Atomic* object, or the first coordinate of a VarHandle
     * operation: an object, or an array with element {@code index}; -1 when there is none), started at {@code t0}.
     */
    public static void ldcw(Object target, long index, long t0) {
        ThreadTrace t = TraceRuntime.current();
        if (!t.traced || target == null) {
            return;
        }
        try {
            long a;
            Class<?> c = target.getClass();
            if (c.isArray() || !isAtomic(c)) {
                // A VarHandle on an application object or array: the object's own address, which no field or
                // array element access ever has (they start after the header), so the synchronization variables
                // are disjoint from the data addresses (on-the-fly CIAT relies on it: agent/README.md).
                a = Addresses.of(target, t);
            } else {
                a = Addresses.of(target, t) + VALUE_OFFSET.get(c);
            }
            t.call(CallType.LDCW, t0, TraceRuntime.now(), a, 0, 0, 0);
        } catch (Throwable e) {
            // recording only
        }
    }

    /** True for the {@code java.util.concurrent.atomic} classes and their subclasses (ldcw on their value field). */
    private static boolean isAtomic(Class<?> c) {
        for (Class<?> k = c; k != null; k = k.getSuperclass()) {
            if (k.getName().startsWith("java.util.concurrent.atomic.")) {
                return true;
            }
        }
        return false;
    }

    // ---- files (called by generated wrappers after the operation) ----

    /**
     * A read ({@code write} false) or write through a JDK file API: {@code stream} the FileInputStream,
     * FileOutputStream, RandomAccessFile or FileChannel (null for java.nio.file.Files), {@code buf} the byte
     * array or ByteBuffer, {@code off} the offset in it, {@code bytes} bytes moved (negative: none); {@code mode}
     * 1: {@code bytes} is a single-byte read's result (one byte unless negative), 2: the whole byte array moved.
     */
    public static void fileIo(boolean write, Object stream, Object buf, long off, long bytes, int mode, long t0) {
        ThreadTrace t = TraceRuntime.current();
        if (!t.traced) {
            return;
        }
        if (stream != null && !(stream instanceof FileInputStream || stream instanceof FileOutputStream
                || stream instanceof RandomAccessFile || stream instanceof FileChannel)) {
            return;
        }
        try {
            long addr = 0;
            if (buf instanceof byte[]) {
                addr = Addresses.of(buf, t) + Layouts.base(1) + off;
            } else if (buf != null) {
                addr = Addresses.of(buf, t);
            }
            long n = bytes;
            if (mode == 1) {
                n = bytes >= 0 ? 1 : 0;
            } else if (mode == 2) {
                n = buf instanceof byte[] ? ((byte[]) buf).length : 0;
            }
            long handle = stream == null ? NEXT_HANDLE.getAndIncrement() : handle(stream);
            t.call(write ? CallType.FILE_WRITE : CallType.FILE_READ, t0, TraceRuntime.now(), addr,
                    Math.max(0, n), handle, 0);
        } catch (Throwable e) {
            // recording only
        }
    }

    private static long handle(Object stream) {
        int h = System.identityHashCode(stream);
        long v = Addresses.STATE.get(stream, h);
        if (v == 0) {
            v = Addresses.STATE.putIfAbsent(stream, h, NEXT_HANDLE.getAndIncrement());
        }
        return v;
    }
}
