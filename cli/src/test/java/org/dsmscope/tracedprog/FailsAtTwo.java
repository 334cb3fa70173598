package org.dsmscope.tracedprog;

/**
 * Test program for {@code dsmscope study}: {@code FailsAtTwo THREADS}. THREADS threads each add up a shared array;
 * the run fails its check (exit status 1) with exactly two threads; any other argument list is a usage error (exit
 * status 2).
 */
public final class FailsAtTwo {
    static final long[] SHARED = new long[256];

    public static void main(String[] args) throws Exception {
        if (args.length != 1) {
            System.err.println("usage: FailsAtTwo THREADS");
            System.exit(2);
        }
        int threads = Integer.parseInt(args[0]);
        for (int i = 0; i < SHARED.length; i++) {
            SHARED[i] = i;
        }
        long[] sums = new long[threads];
        Thread[] ts = new Thread[threads];
        for (int k = 0; k < threads; k++) {
            int me = k;
            ts[k] = new Thread(() -> {
                for (long v : SHARED) {
                    sums[me] += v;
                }
            });
            ts[k].start();
        }
        for (Thread t : ts) {
            t.join();
        }
        if (threads == 2) {
            System.err.println("FailsAtTwo: check failed with 2 threads");
            System.exit(1);
        }
        System.out.println("FailsAtTwo threads=" + threads + " sum=" + sums[0] + " PASS");
    }
}
