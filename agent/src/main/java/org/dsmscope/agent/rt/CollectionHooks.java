package org.dsmscope.agent.rt;

import java.util.AbstractCollection;
import java.util.AbstractQueue;
import java.util.Collection;
import java.util.Deque;
import java.util.Queue;
import java.util.concurrent.BlockingDeque;
import java.util.concurrent.BlockingQueue;

/**
 * Level 1 entry points for queue hand-offs called through a wider interface type than {@code BlockingQueue}
 * (issue 28's leftover, SPEC §3's acquire / release scheme): {@code Queue}, {@code Deque} and {@code Collection}
 * call sites ({@code Queue<T> q = new ArrayBlockingQueue<>(8); q.offer(x)}). Each hook checks the receiver's
 * class ({@link #blockingQueue}, {@link #blockingDeque}: a class check or two) and hands a blocking queue to the
 * {@link QueueHooks} entry point its concrete-typed call reaches, so it records exactly what that call records;
 * any other collection ({@code ArrayDeque}, {@code LinkedList}, {@code ArrayList}, {@code ConcurrentLinkedQueue})
 * gets the program's own call and nothing is recorded.
 */
@SuppressWarnings({"unchecked", "rawtypes"})
public final class CollectionHooks {
    private CollectionHooks() {
    }

    /**
     * True if {@code c} is a {@code BlockingQueue}. Every JDK blocking queue extends {@code AbstractQueue}; the
     * common collections ({@code ArrayList}, {@code HashSet}, {@code ArrayDeque}, {@code LinkedList}, …) extend
     * {@code AbstractCollection} but not {@code AbstractQueue}, and two class checks (constant time) answer for
     * them. The interface check alone would, once a program's call sites have passed several collection classes
     * through this hook, scan the class's interfaces on every call (HotSpot 17: tens of ns for an {@code ArrayList}).
     * A class that extends {@code AbstractCollection}, not {@code AbstractQueue}, and implements
     * {@code BlockingQueue} is taken for a plain collection.
     */
    static boolean blockingQueue(Object c) {
        return (c instanceof AbstractQueue || !(c instanceof AbstractCollection)) && c instanceof BlockingQueue;
    }

    /** True if {@code d} is a {@code BlockingDeque}, checked as {@link #blockingQueue}. */
    static boolean blockingDeque(Object d) {
        return (d instanceof AbstractQueue || !(d instanceof AbstractCollection)) && d instanceof BlockingDeque;
    }

    /** {@code c.add(e)} through {@code Collection}, {@code Queue} or {@code Deque}. */
    public static boolean add(Collection c, Object e) {
        return blockingQueue(c) ? QueueHooks.add((BlockingQueue) c, e) : c.add(e);
    }

    /** {@code c.remove(o)} through {@code Collection}, {@code Queue} or {@code Deque}. */
    public static boolean remove(Collection c, Object o) {
        return blockingQueue(c) ? QueueHooks.remove((BlockingQueue) c, o) : c.remove(o);
    }

    /** {@code q.offer(e)} through {@code Queue} or {@code Deque}. */
    public static boolean offer(Queue q, Object e) {
        return blockingQueue(q) ? QueueHooks.offer((BlockingQueue) q, e) : q.offer(e);
    }

    /** {@code q.poll()} through {@code Queue} or {@code Deque}. */
    public static Object poll(Queue q) {
        return blockingQueue(q) ? QueueHooks.poll((BlockingQueue) q) : q.poll();
    }

    /** {@code q.remove()} through {@code Queue} or {@code Deque}. */
    public static Object remove(Queue q) {
        return blockingQueue(q) ? QueueHooks.remove((BlockingQueue) q) : q.remove();
    }

    /** {@code d.addFirst(e)} through {@code Deque}. */
    public static void addFirst(Deque d, Object e) {
        if (blockingDeque(d)) {
            QueueHooks.addFirst((BlockingDeque) d, e);
        } else {
            d.addFirst(e);
        }
    }

    /** {@code d.addLast(e)} through {@code Deque}. */
    public static void addLast(Deque d, Object e) {
        if (blockingDeque(d)) {
            QueueHooks.addLast((BlockingDeque) d, e);
        } else {
            d.addLast(e);
        }
    }

    /** {@code d.push(e)} through {@code Deque}. */
    public static void push(Deque d, Object e) {
        if (blockingDeque(d)) {
            QueueHooks.push((BlockingDeque) d, e);
        } else {
            d.push(e);
        }
    }

    /** {@code d.offerFirst(e)} through {@code Deque}. */
    public static boolean offerFirst(Deque d, Object e) {
        return blockingDeque(d) ? QueueHooks.offerFirst((BlockingDeque) d, e) : d.offerFirst(e);
    }

    /** {@code d.offerLast(e)} through {@code Deque}. */
    public static boolean offerLast(Deque d, Object e) {
        return blockingDeque(d) ? QueueHooks.offerLast((BlockingDeque) d, e) : d.offerLast(e);
    }

    /** {@code d.pollFirst()} through {@code Deque}. */
    public static Object pollFirst(Deque d) {
        return blockingDeque(d) ? QueueHooks.pollFirst((BlockingDeque) d) : d.pollFirst();
    }

    /** {@code d.pollLast()} through {@code Deque}. */
    public static Object pollLast(Deque d) {
        return blockingDeque(d) ? QueueHooks.pollLast((BlockingDeque) d) : d.pollLast();
    }

    /** {@code d.removeFirst()} through {@code Deque}. */
    public static Object removeFirst(Deque d) {
        return blockingDeque(d) ? QueueHooks.removeFirst((BlockingDeque) d) : d.removeFirst();
    }

    /** {@code d.removeLast()} through {@code Deque}. */
    public static Object removeLast(Deque d) {
        return blockingDeque(d) ? QueueHooks.removeLast((BlockingDeque) d) : d.removeLast();
    }

    /** {@code d.pop()} through {@code Deque}. */
    public static Object pop(Deque d) {
        return blockingDeque(d) ? QueueHooks.pop((BlockingDeque) d) : d.pop();
    }
}
