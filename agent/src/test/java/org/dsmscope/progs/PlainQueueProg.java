package org.dsmscope.progs;

import java.io.Serializable;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.Deque;
import java.util.LinkedList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.function.Consumer;

/**
 * Test program: what the agent does not record as a hand-off (issue 28's leftover). Collections that are not
 * blocking queues, used through {@code Queue}, {@code Deque} and {@code Collection} and through method references
 * ({@code ArrayDeque}, {@code LinkedList}, {@code ArrayList}); then a {@code LinkedBlockingQueue} filled by calls
 * the agent does not see (a serializable method reference, reflection, {@code Collections.addAll}, whose
 * {@code add} calls run inside the JDK), and one {@code offer} through {@code Queue} that it does see. Main alone;
 * prints {@code check SUMS}.
 */
public final class PlainQueueProg {
    public static void main(String[] args) throws Exception {
        Queue<Integer> deque = new ArrayDeque<>();
        Queue<Integer> linked = new LinkedList<>();
        Deque<Integer> stack = new ArrayDeque<>();
        Collection<Integer> list = new ArrayList<>();
        List<Integer> items = List.of(1, 2, 3, 4);
        items.forEach(deque::offer);
        items.forEach(linked::add);
        items.forEach(stack::push);
        items.forEach(list::add);
        long sum = 0;
        Integer v;
        while ((v = deque.poll()) != null) {
            sum += v;
        }
        while (!linked.isEmpty()) {
            sum += linked.remove();
        }
        while (!stack.isEmpty()) {
            sum += stack.pop() + stack.pollLast();
        }
        sum += list.remove(3) ? 3 : 0;
        Queue<Integer> blocking = new LinkedBlockingQueue<>();
        Consumer<Integer> serial = (Consumer<Integer> & Serializable) blocking::add;
        serial.accept(10);
        BlockingQueue.class.getMethod("offer", Object.class).invoke(blocking, 20);
        Collections.addAll(blocking, 30, 40);
        blocking.offer(50);
        long seen = 0;
        for (int x : blocking) {
            seen += x;
        }
        System.out.println("check " + sum + " " + seen);
    }
}
