package org.dsmscope.bench.agent;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashSet;
import java.util.LinkedList;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * Workload for the cost of the agent's interface-typed call sites on programs that use no
 * {@code java.util.concurrent} queue (agent/README.md "Interface-typed call sites"): {@code CollectionAdds CALLS
 * ROUNDS mono|mixed} calls {@code Collection.add} CALLS times per round on an {@code ArrayList} held as a
 * {@code Collection} (cleared every 1,024 adds, the elements boxed in advance), and prints the nanoseconds of CPU
 * time of the measuring thread per call of each round (less moved by other load than wall time) and their median
 * over the rounds after the first two. Under the agent every such call site goes
 * through {@code rt.CollectionHooks.add}, whose {@code instanceof BlockingQueue} check sends the call on; with
 * {@code mixed} the same call site first sees five other collection classes, so the check's type profile is not
 * {@code ArrayList} alone. Run by {@code bench/scripts/collection_ab.py}, uninstrumented and under agent jars.
 */
public final class CollectionAdds {
    private static final ThreadMXBean MX = ManagementFactory.getThreadMXBean();

    private CollectionAdds() {
    }

    /** Entry point: {@code CollectionAdds CALLS ROUNDS mono|mixed}. */
    public static void main(String[] args) {
        int calls = Integer.parseInt(args[0]);
        int rounds = Integer.parseInt(args[1]);
        Integer[] boxes = new Integer[1024];
        for (int i = 0; i < boxes.length; i++) {
            boxes[i] = i;
        }
        long check = 0;
        if (args[2].equals("mixed")) {
            for (Collection<Integer> c : Arrays.<Collection<Integer>>asList(new HashSet<>(), new ArrayDeque<>(),
                    new LinkedList<>(), new TreeSet<>(), new ConcurrentLinkedQueue<>())) {
                for (int r = 0; r < 20; r++) {
                    check += fill(c, boxes, 100_000);
                }
            }
        }
        ArrayList<Integer> list = new ArrayList<>(1024);
        double[] ns = new double[rounds];
        StringBuilder sb = new StringBuilder("ns/call");
        for (int r = 0; r < rounds; r++) {
            long t0 = MX.getCurrentThreadCpuTime();
            check += fill(list, boxes, calls);
            ns[r] = (MX.getCurrentThreadCpuTime() - t0) / (double) calls;
            sb.append(String.format(" %.3f", ns[r]));
        }
        double[] warm = Arrays.copyOfRange(ns, Math.min(2, rounds - 1), rounds);
        Arrays.sort(warm);
        System.out.println(sb);
        System.out.println(String.format("median %.3f ns/call check %d", warm[warm.length / 2], check));
    }

    /** {@code calls} adds through {@code Collection}, clearing every 1,024; returns the last size. */
    private static long fill(Collection<Integer> c, Integer[] boxes, int calls) {
        for (int i = 0; i < calls; i++) {
            c.add(boxes[i & 1023]);
            if ((i & 1023) == 1023) {
                c.clear();
            }
        }
        return c.size();
    }
}
