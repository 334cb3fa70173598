package org.dsmscope.agent.rt;

import java.util.Collection;
import java.util.concurrent.BlockingDeque;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.Exchanger;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.TransferQueue;
import org.dsmscope.agent.core.Addresses;
import org.dsmscope.agent.core.ThreadTrace;
import org.dsmscope.agent.core.TraceRuntime;
import org.dsmscope.trace.CallType;

/**
 * Level 1 entry points for the hand-offs of {@code BlockingQueue}, {@code BlockingDeque}, {@code TransferQueue},
 * {@code SynchronousQueue} and {@code Exchanger} (issue 28, SPEC §3's acquire / release scheme, extension types
 * 23 / 24 with per-object sequence numbers), whose JDK code is not traced.
 *
 * <p>An element's way in is a release on the queue, numbered after the element is in (so a number never names a
 * put still blocked); the k-th element out an acquire of put k when puts and takes use opposite ends (the element's
 * own put with one producer), else of the last put numbered once k were (a put that has happened). Its way out of
 * a bounded queue (or a transfer queue) is a release on the queue's {@link QueueSlots}, and put number m of a queue
 * of capacity C acquires slot release m − C: the producer of a full queue waits for the take that made room; a
 * {@code SynchronousQueue} (C = 0) and a {@code transfer} wait for their own take. An {@code Exchanger}'s party
 * releases a number on it before the exchange and acquires its partner's after.
 *
 * <p>A number is taken and its release recorded at once, and an acquire names only numbers already taken (after a
 * bounded wait, {@link #CATCH_UP_NANOS}, for the one it should name: its giver is a few instructions behind), so the
 * records of every thread follow the real order of these events and the replay can always schedule them.
 *
 * <p>Each hook performs the program's own call unchanged and records around it; recording never throws.
 */
public final class QueueHooks {
    /** How long an acquire waits for the number it should name (its giver is about to take it). */
    static final long CATCH_UP_NANOS = 1_000_000;

    private QueueHooks() {
    }

    /** {@code q.put(e)}. */
    public static void put(BlockingQueue<Object> q, Object e) throws InterruptedException {
        long t0 = TraceRuntime.now();
        q.put(e);
        placed(q, t0, QueueSlots.PUT_TAIL, false);
    }

    /** {@code q.offer(e)}. */
    public static boolean offer(BlockingQueue<Object> q, Object e) {
        long t0 = TraceRuntime.now();
        return placedIf(q.offer(e), q, t0, QueueSlots.PUT_TAIL);
    }

    /** {@code q.add(e)}. */
    public static boolean add(BlockingQueue<Object> q, Object e) {
        long t0 = TraceRuntime.now();
        return placedIf(q.add(e), q, t0, QueueSlots.PUT_TAIL);
    }

    /** {@code q.offer(e, time, unit)}. */
    public static boolean offer(BlockingQueue<Object> q, Object e, long time, TimeUnit unit)
            throws InterruptedException {
        long t0 = TraceRuntime.now();
        return placedIf(q.offer(e, time, unit), q, t0, QueueSlots.PUT_TAIL);
    }

    /** {@code d.putFirst(e)}. */
    public static void putFirst(BlockingDeque<Object> d, Object e) throws InterruptedException {
        long t0 = TraceRuntime.now();
        d.putFirst(e);
        placed(d, t0, QueueSlots.PUT_HEAD, false);
    }

    /** {@code d.putLast(e)}. */
    public static void putLast(BlockingDeque<Object> d, Object e) throws InterruptedException {
        long t0 = TraceRuntime.now();
        d.putLast(e);
        placed(d, t0, QueueSlots.PUT_TAIL, false);
    }

    /** {@code d.offerFirst(e)}. */
    public static boolean offerFirst(BlockingDeque<Object> d, Object e) {
        long t0 = TraceRuntime.now();
        return placedIf(d.offerFirst(e), d, t0, QueueSlots.PUT_HEAD);
    }

    /** {@code d.offerLast(e)}. */
    public static boolean offerLast(BlockingDeque<Object> d, Object e) {
        long t0 = TraceRuntime.now();
        return placedIf(d.offerLast(e), d, t0, QueueSlots.PUT_TAIL);
    }

    /** {@code d.offerFirst(e, time, unit)}. */
    public static boolean offerFirst(BlockingDeque<Object> d, Object e, long time, TimeUnit unit)
            throws InterruptedException {
        long t0 = TraceRuntime.now();
        return placedIf(d.offerFirst(e, time, unit), d, t0, QueueSlots.PUT_HEAD);
    }

    /** {@code d.offerLast(e, time, unit)}. */
    public static boolean offerLast(BlockingDeque<Object> d, Object e, long time, TimeUnit unit)
            throws InterruptedException {
        long t0 = TraceRuntime.now();
        return placedIf(d.offerLast(e, time, unit), d, t0, QueueSlots.PUT_TAIL);
    }

    /** {@code d.addFirst(e)}. */
    public static void addFirst(BlockingDeque<Object> d, Object e) {
        long t0 = TraceRuntime.now();
        d.addFirst(e);
        placed(d, t0, QueueSlots.PUT_HEAD, false);
    }

    /** {@code d.addLast(e)}. */
    public static void addLast(BlockingDeque<Object> d, Object e) {
        long t0 = TraceRuntime.now();
        d.addLast(e);
        placed(d, t0, QueueSlots.PUT_TAIL, false);
    }

    /** {@code d.push(e)}. */
    public static void push(BlockingDeque<Object> d, Object e) {
        long t0 = TraceRuntime.now();
        d.push(e);
        placed(d, t0, QueueSlots.PUT_HEAD, false);
    }

    /** {@code q.transfer(e)}: the put waits for its own take. */
    public static void transfer(TransferQueue<Object> q, Object e) throws InterruptedException {
        TraceRuntime.blocking(TraceRuntime.current());
        long t0 = TraceRuntime.now();
        q.transfer(e);
        placed(q, t0, QueueSlots.PUT_TAIL, true);
    }

    /** {@code q.tryTransfer(e)}: when a consumer took it, as {@link #transfer}. */
    public static boolean tryTransfer(TransferQueue<Object> q, Object e) {
        long t0 = TraceRuntime.now();
        boolean ok = q.tryTransfer(e);
        if (ok) {
            placed(q, t0, QueueSlots.PUT_TAIL, true);
        }
        return ok;
    }

    /** {@code q.tryTransfer(e, time, unit)}: when a consumer took it, as {@link #transfer}. */
    public static boolean tryTransfer(TransferQueue<Object> q, Object e, long time, TimeUnit unit)
            throws InterruptedException {
        long t0 = TraceRuntime.now();
        boolean ok = q.tryTransfer(e, time, unit);
        if (ok) {
            placed(q, t0, QueueSlots.PUT_TAIL, true);
        }
        return ok;
    }

    /** {@code q.take()}. */
    public static Object take(BlockingQueue<Object> q) throws InterruptedException {
        long t0 = beforeTake(q);
        Object e = q.take();
        took(q, t0, QueueSlots.TAKE_HEAD, 1);
        return e;
    }

    /** {@code q.poll()}. */
    public static Object poll(BlockingQueue<Object> q) {
        long t0 = TraceRuntime.now();
        return tookIf(q.poll(), q, t0, QueueSlots.TAKE_HEAD);
    }

    /** {@code q.poll(time, unit)}. */
    public static Object poll(BlockingQueue<Object> q, long time, TimeUnit unit) throws InterruptedException {
        long t0 = beforeTake(q);
        return tookIf(q.poll(time, unit), q, t0, QueueSlots.TAKE_HEAD);
    }

    /** {@code q.remove()}: the head, or {@code NoSuchElementException}. */
    public static Object remove(BlockingQueue<Object> q) {
        long t0 = TraceRuntime.now();
        Object e = q.remove();
        took(q, t0, QueueSlots.TAKE_HEAD, 1);
        return e;
    }

    /** {@code q.remove(o)}: an element out of the middle; later takes no longer pair by position. */
    public static boolean remove(BlockingQueue<Object> q, Object o) {
        long t0 = TraceRuntime.now();
        boolean ok = q.remove(o);
        if (ok) {
            took(q, t0, QueueSlots.UNORDERED, 1);
        }
        return ok;
    }

    /** {@code q.drainTo(c)}: n takes at once, one acquire (of the n-th) and n slot releases. */
    public static int drainTo(BlockingQueue<Object> q, Collection<Object> c) {
        long t0 = TraceRuntime.now();
        int n = q.drainTo(c);
        if (n > 0) {
            took(q, t0, QueueSlots.TAKE_HEAD, n);
        }
        return n;
    }

    /** {@code q.drainTo(c, max)}. */
    public static int drainTo(BlockingQueue<Object> q, Collection<Object> c, int max) {
        long t0 = TraceRuntime.now();
        int n = q.drainTo(c, max);
        if (n > 0) {
            took(q, t0, QueueSlots.TAKE_HEAD, n);
        }
        return n;
    }

    /** {@code d.takeFirst()}. */
    public static Object takeFirst(BlockingDeque<Object> d) throws InterruptedException {
        long t0 = beforeTake(d);
        Object e = d.takeFirst();
        took(d, t0, QueueSlots.TAKE_HEAD, 1);
        return e;
    }

    /** {@code d.takeLast()}. */
    public static Object takeLast(BlockingDeque<Object> d) throws InterruptedException {
        long t0 = beforeTake(d);
        Object e = d.takeLast();
        took(d, t0, QueueSlots.TAKE_TAIL, 1);
        return e;
    }

    /** {@code d.pollFirst()}. */
    public static Object pollFirst(BlockingDeque<Object> d) {
        long t0 = TraceRuntime.now();
        return tookIf(d.pollFirst(), d, t0, QueueSlots.TAKE_HEAD);
    }

    /** {@code d.pollLast()}. */
    public static Object pollLast(BlockingDeque<Object> d) {
        long t0 = TraceRuntime.now();
        return tookIf(d.pollLast(), d, t0, QueueSlots.TAKE_TAIL);
    }

    /** {@code d.pollFirst(time, unit)}. */
    public static Object pollFirst(BlockingDeque<Object> d, long time, TimeUnit unit) throws InterruptedException {
        long t0 = beforeTake(d);
        return tookIf(d.pollFirst(time, unit), d, t0, QueueSlots.TAKE_HEAD);
    }

    /** {@code d.pollLast(time, unit)}. */
    public static Object pollLast(BlockingDeque<Object> d, long time, TimeUnit unit) throws InterruptedException {
        long t0 = beforeTake(d);
        return tookIf(d.pollLast(time, unit), d, t0, QueueSlots.TAKE_TAIL);
    }

    /** {@code d.removeFirst()}. */
    public static Object removeFirst(BlockingDeque<Object> d) {
        long t0 = TraceRuntime.now();
        Object e = d.removeFirst();
        took(d, t0, QueueSlots.TAKE_HEAD, 1);
        return e;
    }

    /** {@code d.removeLast()}. */
    public static Object removeLast(BlockingDeque<Object> d) {
        long t0 = TraceRuntime.now();
        Object e = d.removeLast();
        took(d, t0, QueueSlots.TAKE_TAIL, 1);
        return e;
    }

    /** {@code d.pop()}. */
    public static Object pop(BlockingDeque<Object> d) {
        long t0 = TraceRuntime.now();
        Object e = d.pop();
        took(d, t0, QueueSlots.TAKE_HEAD, 1);
        return e;
    }

    /** {@code x.exchange(v)}. */
    public static Object exchange(Exchanger<Object> x, Object v) throws InterruptedException {
        ThreadTrace t = TraceRuntime.current();
        long t0 = offering(t, x, v);
        Object got = x.exchange(v);
        exchanged(t, x, v, got, t0);
        return got;
    }

    /** {@code x.exchange(v, time, unit)}. */
    public static Object exchange(Exchanger<Object> x, Object v, long time, TimeUnit unit)
            throws InterruptedException, TimeoutException {
        ThreadTrace t = TraceRuntime.current();
        long t0 = offering(t, x, v);
        Object got = x.exchange(v, time, unit);
        exchanged(t, x, v, got, t0);
        return got;
    }

    /**
     * Before an exchange: a release on the exchanger, its number left on the offered object for the partner (the
     * exchange hands it over, so the partner sees it); nothing for {@code null}, which carries no number.
     */
    private static long offering(ThreadTrace t, Exchanger<Object> x, Object v) {
        TraceRuntime.blocking(t);
        long t0 = TraceRuntime.now();
        if (x == null || v == null || !t.traced) {
            return t0;
        }
        try {
            long s = SyncState.of(x).nextRelease();
            SyncState.of(v).offered = s;
            record(t, CallType.SYNC_RELEASE, x, t0, s, 1);
        } catch (Throwable e) {
            // recording only
        }
        return t0;
    }

    /** After an exchange: an acquire of the number the partner left on what it offered (none: nothing). */
    private static void exchanged(ThreadTrace t, Exchanger<Object> x, Object mine, Object got, long t0) {
        if (got == null || got == mine || !t.traced) {
            return;
        }
        try {
            long s = SyncState.of(got).offered;
            if (s != 0) {
                record(t, CallType.SYNC_ACQUIRE, x, t0, s, 1);
            }
        } catch (Throwable e) {
            // recording only
        }
    }

    /** Before a take that may block: its start; on the fly, the thread's records go to the analysis first. */
    private static long beforeTake(BlockingQueue<Object> q) {
        if (q != null && q.isEmpty()) {
            TraceRuntime.blocking(TraceRuntime.current());
        }
        return TraceRuntime.now();
    }

    private static boolean placedIf(boolean ok, BlockingQueue<Object> q, long t0, int end) {
        if (ok) {
            placed(q, t0, end, false);
        }
        return ok;
    }

    private static Object tookIf(Object e, BlockingQueue<Object> q, long t0, int end) {
        if (e != null) {
            took(q, t0, end, 1);
        }
        return e;
    }

    /**
     * An element is in {@code q} at {@code end}: the next release on it; then, for a bounded queue, an acquire of
     * the slot that put number m needed (slot release m − C), for a transfer of its own take's (slot release m).
     */
    private static void placed(BlockingQueue<Object> q, long t0, int end, boolean transfer) {
        ThreadTrace t = TraceRuntime.current();
        if (!t.traced) {
            return;
        }
        try {
            SyncState st = SyncState.of(q);
            QueueSlots s = st.slots(q);
            s.used(end);
            long m = st.nextRelease();
            record(t, CallType.SYNC_RELEASE, q, t0, m, 1);
            long need = transfer ? m : s.capacity >= 0 ? m - s.capacity : 0;
            if (need > 0) {
                record(t, CallType.SYNC_ACQUIRE, s, t0, Math.min(await(s, need), need), 1);
            }
        } catch (Throwable e) {
            // recording only
        }
    }

    /**
     * {@code n} elements left {@code q} at {@code end}: one acquire for takes k − n + 1 … k, of put k when the queue
     * is first-in first-out, else of the last put numbered once k were; then, for a bounded or transfer queue, a
     * slot release per element. A put is numbered just after its element went in, so the take may see the element
     * first: it waits up to {@link #CATCH_UP_NANOS} for put k's number, then takes the last number given (a put
     * that has happened; 0: none, no order).
     */
    private static void took(BlockingQueue<Object> q, long t0, int end, int n) {
        ThreadTrace t = TraceRuntime.current();
        if (!t.traced) {
            return;
        }
        try {
            SyncState st = SyncState.of(q);
            QueueSlots s = st.slots(q);
            s.used(end);
            long k = st.nextTake(n);
            long seq = await(st, k);
            record(t, CallType.SYNC_ACQUIRE, q, t0, s.fifo() ? Math.min(seq, k) : seq, n);
            if (s.slotted) {
                for (int i = 0; i < n; i++) {
                    record(t, CallType.SYNC_RELEASE, s, t0, s.nextFreed(), 1);
                }
            }
        } catch (Throwable e) {
            // recording only
        }
    }

    /** The last number {@code c} gave, after waiting up to {@link #CATCH_UP_NANOS} for it to reach {@code k}. */
    private static long await(Numbered c, long k) {
        long seq = c.last();
        if (seq < k) {
            long until = System.nanoTime() + CATCH_UP_NANOS;
            while (seq < k && System.nanoTime() < until) {
                Thread.yield();
                seq = c.last();
            }
        }
        return seq;
    }

    private static void record(ThreadTrace t, int type, Object on, long t0, long seq, int count) {
        try {
            t.call(type, t0, TraceRuntime.now(), Addresses.of(on, t), seq, count, 0);
        } catch (Throwable e) {
            // recording only
        }
    }
}
