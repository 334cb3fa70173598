package org.dsmscope.agent.rt;

import java.util.ArrayDeque;
import org.dsmscope.agent.core.Addresses;

/**
 * Per-object synchronization state kept beside a monitor, condition, latch or semaphore (SPEC §3): the per-object
 * sequence number of its wake-ups or releases, and the tickets of the threads waiting on it, so that each
 * condition wait records the sequence number of the wake-up that ended it. Guarded by its own monitor, which
 * the agent holds only for these few updates and never while the program's code runs.
 */
final class SyncState implements Numbered {
    /** Sequence number of the last wake-up or release (0: none yet). */
    long seq;
    /** Tickets of waiting threads, oldest first: [0] = sequence number of the wake-up assigned to it, 0 if none. */
    final ArrayDeque<long[]> waiters = new ArrayDeque<>(4);
    /** Elements taken from a queue so far by traced threads ({@link #nextTake}). */
    private long taken;
    /** A queue's slots and ends (null until its first traced put or take). */
    private QueueSlots slots;
    /** The release number of the exchange that offered this object last ({@code QueueHooks.exchange}; 0: none). */
    volatile long offered;
    /** A fork-join task's fork: its release number (0: not forked by a traced thread) and forker's index + 1. */
    volatile long forked;
    volatile int forkedBy;
    /** The traced task behind a {@code Future} (a {@code JucHooks.Task}; null for any other object). */
    volatile Object task;
    /** The lock a Condition belongs to (null if unknown or not a Condition). */
    Object lock;
    /**
     * The {@code StampedLock} whose read holds a thread counts under this state (the state of that lock; null
     * otherwise): lets a thread's end name the lock of a read section it still holds.
     */
    Object readsOf;
    /**
     * A Phaser's threads awaiting each recent phase ({@code arriveAndAwaitAdvance}), slot phase &amp; 3 tagged
     * with its phase: a phase completes only after all its parties arrived, so when one of them returns the count
     * of its phase is final, while the next phases may already be counting.
     */
    private final int[] phaseTag = {-1, -1, -1, -1};
    private final int[] phaseWaiters = new int[4];

    /** One more thread awaits {@code phase}. */
    synchronized void awaits(int phase) {
        int i = phase & 3;
        if (phaseTag[i] != phase) {
            phaseTag[i] = phase;
            phaseWaiters[i] = 0;
        }
        phaseWaiters[i]++;
    }

    /** Threads that awaited {@code phase} (0 if it is no longer among the recent phases). */
    synchronized int waiters(int phase) {
        int i = phase & 3;
        return phaseTag[i] == phase ? phaseWaiters[i] : 0;
    }

    /** Creates states (a class, not a method reference: no lambda bootstrap in a traced JVM's start-up). */
    private static final java.util.function.Supplier<Object> NEW = new java.util.function.Supplier<>() {
        @Override
        public Object get() {
            return new SyncState();
        }
    };

    /** The state of {@code o}, created on first use. */
    static SyncState of(Object o) {
        return (SyncState) Addresses.STATE.attachment(o, NEW);
    }

    /** Adds a waiting thread's ticket; returns it. Call with this object's monitor held. */
    long[] enqueue() {
        long[] ticket = new long[2];
        ticket[1] = seq;
        waiters.addLast(ticket);
        return ticket;
    }

    /** A wake-up of one waiter (notify, signal): assigns a new sequence number to the oldest unassigned ticket. */
    synchronized long wakeOne() {
        long s = ++seq;
        for (long[] w : waiters) {
            if (w[0] == 0) {
                w[0] = s;
                break;
            }
        }
        return s;
    }

    /** A wake-up of all waiters (notifyAll, signalAll). */
    synchronized long wakeAll() {
        long s = ++seq;
        for (long[] w : waiters) {
            if (w[0] == 0) {
                w[0] = s;
            }
        }
        return s;
    }

    /** Removes a ticket and returns the sequence number of the wake-up that ended the wait (0 if none). */
    synchronized long leave(long[] ticket) {
        waiters.remove(ticket);
        if (ticket[0] != 0) {
            return ticket[0];
        }
        // Woken by a wake-up assigned to another waiter (the JVM's choice differed): the latest one caused it.
        return seq > ticket[1] ? seq : 0;
    }

    /** A release (countDown, semaphore release): the next sequence number, taken before the release happens. */
    synchronized long nextRelease() {
        return ++seq;
    }

    /** A take from a queue: its index k among the queue's takes by traced threads, 1, 2, 3 … */
    synchronized long nextTake() {
        return ++taken;
    }

    /** {@code n} takes at once: the index of the last of them. */
    synchronized long nextTake(int n) {
        taken += n;
        return taken;
    }

    /** The slots of the queue {@code q} whose state this is, created on first use. */
    synchronized QueueSlots slots(Object q) {
        if (slots == null) {
            slots = QueueSlots.of(q);
        }
        return slots;
    }

    @Override
    public long last() {
        return lastRelease();
    }

    /** The last release's sequence number (the one an acquire that just passed is ordered after). */
    synchronized long lastRelease() {
        return seq;
    }
}
