package org.dsmscope.tracedprog;

/**
 * Test program for on-the-fly analysis: main starts {@code args[0]} workers, each sweeping its own slice of a shared
 * array {@code args[2]} times while reading a shared table ({@code args[1]} doubles in all), and joins them: a
 * fork-join run whose workers write many times the live budget of records while main waits in its joins.
 */
public final class ForkJoinSweep {
    public static void main(String[] args) throws Exception {
        int p = Integer.parseInt(args[0]);
        int n = Integer.parseInt(args[1]);
        int rounds = Integer.parseInt(args[2]);
        double[] data = new double[n];
        double[] table = new double[64];
        for (int i = 0; i < table.length; i++) {
            table[i] = i * 0.5;
        }
        Thread[] workers = new Thread[p];
        for (int w = 0; w < p; w++) {
            int lo = n * w / p;
            int hi = n * (w + 1) / p;
            workers[w] = new Thread(() -> {
                for (int r = 0; r < rounds; r++) {
                    for (int i = lo; i < hi; i++) {
                        data[i] += table[(i + r) & 63];
                    }
                }
            });
            workers[w].start();
        }
        double sum = 0;
        for (Thread t : workers) {
            t.join();
        }
        for (double d : data) {
            sum += d;
        }
        System.out.println("check " + sum);
    }
}
