package org.dsmscope.agent.rt;

import java.lang.reflect.Field;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.DelayQueue;
import java.util.concurrent.LinkedBlockingDeque;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.PriorityBlockingQueue;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.TransferQueue;

/**
 * A blocking queue's free slots as a synchronization object of their own (issue 28, SPEC §3's acquire / release
 * scheme): every element that leaves a bounded queue (or a {@code TransferQueue}) is a release on this object,
 * numbered 1, 2, 3 … after it left, and the put that needed the slot acquires it: in a queue of capacity C, put
 * number m acquires slot release m − C (a {@code SynchronousQueue}'s C is 0: the put waits for its take; a
 * {@code transfer} waits for the take of its own element). The object is the agent's, never touched by traced code,
 * so its address is never a data address. Also keeps which ends of a queue or deque puts and takes used, to know
 * whether the k-th take got the k-th element.
 */
final class QueueSlots implements Numbered {
    /** Unbounded: no put waits for a slot. */
    static final int UNBOUNDED = -1;
    /** Puts at the head (putFirst, offerFirst, addFirst, push). */
    static final int PUT_HEAD = 1;
    /** Puts at the tail (put, offer, add, putLast ...). */
    static final int PUT_TAIL = 2;
    /** Takes at the head (take, poll, remove(), drainTo, takeFirst ...). */
    static final int TAKE_HEAD = 4;
    /** Takes at the tail (takeLast, pollLast, removeLast). */
    static final int TAKE_TAIL = 8;
    /** An element removed from the middle, or a queue that orders its elements itself (priority, delay). */
    static final int UNORDERED = 16;

    /** Elements the queue holds at most ({@link #UNBOUNDED}: no limit). */
    final int capacity;
    /** Takes number slot releases: the queue is bounded or a transfer queue. */
    final boolean slotted;
    /** The ends used so far ({@link #PUT_HEAD} …), or-ed in as they are first used. */
    private volatile int ends;
    /** Slot releases numbered so far. */
    private long freed;

    private QueueSlots(int capacity, boolean slotted, int ends) {
        this.capacity = capacity;
        this.slotted = slotted;
        this.ends = ends;
    }

    /** The slots of {@code q}: its capacity read once, from the queue's own field where the agent can read it. */
    static QueueSlots of(Object q) {
        int c = capacityOf(q);
        boolean transfer = q instanceof TransferQueue;
        int ends = q instanceof PriorityBlockingQueue || q instanceof DelayQueue ? UNORDERED : 0;
        return new QueueSlots(c, c >= 0 || transfer, ends);
    }

    /** Notes that an operation used {@code end} ({@link #PUT_HEAD} …). */
    void used(int end) {
        if ((ends & end) == 0) {
            synchronized (this) {
                ends |= end;
            }
        }
    }

    /** Whether the k-th take got the k-th element put so far: puts at one end only and takes at the other. */
    boolean fifo() {
        int e = ends;
        return (e & ~(PUT_TAIL | TAKE_HEAD)) == 0 || (e & ~(PUT_HEAD | TAKE_TAIL)) == 0;
    }

    /** An element left the queue: the next slot release's number. */
    synchronized long nextFreed() {
        return ++freed;
    }

    /** The last slot release's number (0: none). */
    @Override
    public synchronized long last() {
        return freed;
    }

    /** The capacity fields, looked up when the first queue is seen (not at the agent's start-up). */
    private static final class Fields {
        static final Field ABQ_ITEMS = field(ArrayBlockingQueue.class, "items");
        static final Field LBQ_CAPACITY = field(LinkedBlockingQueue.class, "capacity");
        static final Field LBD_CAPACITY = field(LinkedBlockingDeque.class, "capacity");
    }

    private static Field field(Class<?> c, String name) {
        try {
            Field f = c.getDeclaredField(name);
            f.setAccessible(true);
            return f;
        } catch (ReflectiveOperationException | RuntimeException e) {
            return null;
        }
    }

    /**
     * The capacity of {@code q}: a {@code SynchronousQueue}'s 0, the field of the JDK's bounded queues (the agent
     * opens {@code java.util.concurrent} to itself at start-up), else remaining capacity plus size (an estimate while
     * other threads use the queue: too large orders less, too small names a slot release that may not come, which
     * the put's bounded wait for it turns into the last one given).
     */
    private static int capacityOf(Object q) {
        if (q instanceof SynchronousQueue) {
            return 0;
        }
        try {
            if (q instanceof ArrayBlockingQueue && Fields.ABQ_ITEMS != null) {
                return ((Object[]) Fields.ABQ_ITEMS.get(q)).length;
            }
            if (q instanceof LinkedBlockingQueue && Fields.LBQ_CAPACITY != null) {
                return Fields.LBQ_CAPACITY.getInt(q);
            }
            if (q instanceof LinkedBlockingDeque && Fields.LBD_CAPACITY != null) {
                return Fields.LBD_CAPACITY.getInt(q);
            }
        } catch (IllegalAccessException | RuntimeException e) {
            // estimate below
        }
        if (q instanceof BlockingQueue) {
            BlockingQueue<?> b = (BlockingQueue<?>) q;
            int r = b.remainingCapacity();
            if (r == Integer.MAX_VALUE) {
                return UNBOUNDED;
            }
            long c = (long) r + b.size();
            return c >= Integer.MAX_VALUE ? UNBOUNDED : (int) c;
        }
        return UNBOUNDED;
    }
}
