package org.dsmscope.agent.rt;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.Proxy;
import java.util.AbstractQueue;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedList;
import java.util.List;
import java.util.PriorityQueue;
import java.util.Set;
import java.util.TreeSet;
import java.util.Vector;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingDeque;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.DelayQueue;
import java.util.concurrent.LinkedBlockingDeque;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.LinkedTransferQueue;
import java.util.concurrent.PriorityBlockingQueue;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * {@link CollectionHooks}' receiver check (issue 28's leftover): its class checks answer as {@code instanceof
 * BlockingQueue} / {@code BlockingDeque} would, for the JDK's collections, a program's own blocking queue and a
 * proxy (no {@code AbstractCollection}); on other collections the hooks make the program's call.
 */
class CollectionHooksTest {
    /** A program's own blocking queue on {@code AbstractQueue}. */
    @SuppressWarnings("NullableProblems")
    static final class OwnQueue<E> extends AbstractQueue<E> implements BlockingQueue<E> {
        private final LinkedBlockingQueue<E> q = new LinkedBlockingQueue<>();

        @Override public Iterator<E> iterator() { return q.iterator(); }
        @Override public int size() { return q.size(); }
        @Override public void put(E e) throws InterruptedException { q.put(e); }
        @Override public boolean offer(E e, long t, TimeUnit u) throws InterruptedException { return q.offer(e, t, u); }
        @Override public E take() throws InterruptedException { return q.take(); }
        @Override public E poll(long t, TimeUnit u) throws InterruptedException { return q.poll(t, u); }
        @Override public int remainingCapacity() { return q.remainingCapacity(); }
        @Override public int drainTo(Collection<? super E> c) { return q.drainTo(c); }
        @Override public int drainTo(Collection<? super E> c, int max) { return q.drainTo(c, max); }
        @Override public boolean offer(E e) { return q.offer(e); }
        @Override public E poll() { return q.poll(); }
        @Override public E peek() { return q.peek(); }
    }

    private static List<Collection<?>> collections() {
        return List.of(new ArrayList<>(), new LinkedList<>(), new ArrayDeque<>(), new HashSet<>(), new TreeSet<>(),
                new Vector<>(), new PriorityQueue<>(), new ConcurrentLinkedQueue<>(), new ConcurrentLinkedDeque<>(),
                new CopyOnWriteArrayList<>(), Collections.unmodifiableCollection(new ArrayList<>()),
                Collections.synchronizedCollection(new ArrayList<>()), List.of(1), Set.of(1),
                new ArrayBlockingQueue<>(4), new LinkedBlockingQueue<>(), new LinkedBlockingDeque<>(),
                new PriorityBlockingQueue<>(), new DelayQueue<>(), new SynchronousQueue<>(),
                new LinkedTransferQueue<>(), new OwnQueue<>(),
                Collections.unmodifiableCollection(new ArrayBlockingQueue<>(2)), proxy());
    }

    /** A {@code BlockingDeque} proxy delegating to a {@code LinkedBlockingDeque}. */
    @SuppressWarnings("unchecked")
    private static Collection<Integer> proxy() {
        LinkedBlockingDeque<Integer> to = new LinkedBlockingDeque<>();
        return (Collection<Integer>) Proxy.newProxyInstance(CollectionHooksTest.class.getClassLoader(),
                new Class<?>[] {BlockingDeque.class}, (p, m, a) -> m.invoke(to, a));
    }

    @Test
    void classChecks_answerAsTheInterfaceChecks_forTheJdksCollectionsAndAnOwnQueue() {
        int blocking = 0;
        for (Collection<?> c : collections()) {
            assertEquals(c instanceof BlockingQueue, CollectionHooks.blockingQueue(c), c.getClass().getName());
            assertEquals(c instanceof BlockingDeque, CollectionHooks.blockingDeque(c), c.getClass().getName());
            blocking += CollectionHooks.blockingQueue(c) ? 1 : 0;
        }
        assertEquals(9, blocking, "the seven JDK blocking queues, the program's own and the proxy");
        assertFalse(CollectionHooks.blockingQueue(null));
    }

    @Test
    void onPlainCollections_theHooksMakeTheProgramsCall() {
        ArrayDeque<Integer> d = new ArrayDeque<>();
        assertTrue(CollectionHooks.add(d, 1));
        assertTrue(CollectionHooks.offer(d, 2));
        CollectionHooks.push(d, 0);
        CollectionHooks.addLast(d, 3);
        assertTrue(CollectionHooks.offerFirst(d, -1));
        assertTrue(CollectionHooks.offerLast(d, 4));
        CollectionHooks.addFirst(d, -2);
        assertEquals(List.of(-2, -1, 0, 1, 2, 3, 4), new ArrayList<>(d));
        assertEquals(-2, CollectionHooks.poll(d));
        assertEquals(-1, CollectionHooks.remove((java.util.Queue<?>) d));
        assertEquals(0, CollectionHooks.pop(d));
        assertEquals(4, CollectionHooks.pollLast(d));
        assertEquals(3, CollectionHooks.removeLast(d));
        assertEquals(1, CollectionHooks.pollFirst(d));
        assertEquals(2, CollectionHooks.removeFirst(d));
        assertTrue(CollectionHooks.add(d, 5));
        assertTrue(CollectionHooks.remove((Collection<?>) d, 5));
        assertFalse(CollectionHooks.remove((Collection<?>) d, 5));
        assertEquals(null, CollectionHooks.poll(d));
        assertTrue(d.isEmpty());
    }
}
