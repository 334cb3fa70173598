package org.dsmscope.progs;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.IntStream;

/** Test program exercising many language features under the agent: executors, streams, records, inner classes. */
public final class MixedProg {
    record Point(int x, long y) {
        long sum() {
            return x + y;
        }
    }

    enum Color { RED, GREEN }

    interface Shape {
        double area();

        default String describe() {
            return getClass().getSimpleName() + ":" + area();
        }
    }

    final class Square implements Shape {
        final double side;

        Square(double side) {
            this.side = side + base;
        }

        @Override
        public double area() {
            return side * side;
        }
    }

    double base = 0.5;

    static synchronized int risky(int v) {
        if (v % 3 == 0) {
            throw new IllegalArgumentException("three");
        }
        return v;
    }

    public static void main(String[] args) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(3);
        List<Future<Long>> fs = new ArrayList<>();
        Map<String, Integer> map = new ConcurrentHashMap<>();
        for (int i = 0; i < 9; i++) {
            final int id = i;
            fs.add(pool.submit(() -> {
                long s = 0;
                for (int k = 0; k < 1000; k++) {
                    s += new Point(k, id).sum();
                }
                map.merge("k" + (id % 3), 1, Integer::sum);
                try {
                    s += risky(id);
                } catch (IllegalArgumentException e) {
                    s -= 1;
                }
                return s;
            }));
        }
        long total = 0;
        for (Future<Long> f : fs) {
            total += f.get();
        }
        pool.shutdown();
        long par = IntStream.range(0, 10000).parallel().mapToLong(i -> i * 2L).sum();
        MixedProg m = new MixedProg();
        Shape sq = m.new Square(1.5);
        String name = Color.valueOf(args.length > 0 ? args[0] : "GREEN").name();
        int sw;
        switch (name) {
            case "RED": sw = 1; break;
            case "GREEN": sw = 2; break;
            default: sw = 3;
        }
        char[] cs = name.toCharArray();
        short[] ss = {1, 2, 3};
        float[] fl = {1.5f, 2.5f};
        boolean[] bs = new boolean[2];
        bs[1] = cs.length > 3;
        int[][][] cube = new int[2][3][4];
        cube[1][2][3] = ss[2] + (int) fl[1];
        System.out.println("check " + total + " " + par + " " + sq.describe() + " " + sw + " " + map + " " + bs[1]
                + " " + cube[1][2][3]);
    }
}
