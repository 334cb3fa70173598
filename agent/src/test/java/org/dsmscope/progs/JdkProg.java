package org.dsmscope.progs;

import java.lang.reflect.Field;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Test program for {@code jdk=true} (issue 28): a producer hands N arrays to main through an {@code
 * ArrayBlockingQueue} of 4 slots, a second thread fills a {@code ConcurrentHashMap} that main reads, and four
 * more threads make the agent work (threads registered, classes laid out, buffers written). First it prints the
 * synthetic addresses of two of the agent's own JDK collections ({@code TraceRuntime.TRACES}, an {@code
 * ArrayList} added to at every traced {@code Thread.start}; {@code Layouts.LAID_OUT}, a concurrent set added to at
 * every class laid out), which the trace must never touch. Prints {@code agent ADDR ADDR} and {@code check SUM
 * SIZE}.
 */
public final class JdkProg {
    private JdkProg() {
    }

    /** An instance class of its own, laid out by the agent when first touched. */
    static final class Cell {
        long value;
    }

    private static Object agentField(String cls, String name) throws Exception {
        Field f = Class.forName("org.dsmscope.agent.core." + cls).getDeclaredField(name);
        f.setAccessible(true);
        return f.get(null);
    }

    public static void main(String[] args) throws Exception {
        int n = Integer.parseInt(args[0]);
        java.lang.reflect.Method of = Class.forName("org.dsmscope.agent.core.Addresses").getMethod("of", Object.class);
        System.out.println("agent " + Long.toHexString((Long) of.invoke(null, agentField("TraceRuntime", "TRACES")))
                + " " + Long.toHexString((Long) of.invoke(null, agentField("Layouts", "LAID_OUT"))));
        ArrayBlockingQueue<int[]> queue = new ArrayBlockingQueue<>(4);
        Thread producer = new Thread(() -> {
            try {
                for (int i = 0; i < n; i++) {
                    queue.put(new int[] {i});
                }
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
        });
        producer.start();
        long sum = 0;
        for (int i = 0; i < n; i++) {
            sum += queue.take()[0];
        }
        producer.join();
        ConcurrentHashMap<Integer, Integer> map = new ConcurrentHashMap<>();
        Thread filler = new Thread(() -> {
            for (int i = 0; i < n; i++) {
                map.put(i, i);
            }
        });
        filler.start();
        filler.join();
        for (int i = 0; i < n; i++) {
            sum += map.get(i);
        }
        for (int k = 0; k < 4; k++) {
            Cell[] cells = new Cell[20_000];
            Thread t = new Thread(() -> {
                for (int i = 0; i < cells.length; i++) {
                    cells[i] = new Cell();
                    cells[i].value = i;
                }
            });
            t.start();
            t.join();
            sum += cells[cells.length - 1].value;
        }
        System.out.println("check " + sum + " " + map.size());
    }
}
