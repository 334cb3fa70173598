package org.dsmscope.examples.dsm;

import org.dsmscope.dsm.Consistency;
import org.dsmscope.dsm.Dsm;
import org.dsmscope.dsm.DsmApp;
import org.dsmscope.dsm.Eventcount;
import org.dsmscope.dsm.RandomSegment;

/**
 * Successive over-relaxation on an N×N grid (seed 002 §4.4, Figure 2): rows are split among members; at the start
 * of each iteration every member exchanges its border rows through border segments (release consistency,
 * double-buffered by iteration parity) synchronized by one eventcount per member. The update uses the previous
 * iteration's values (Jacobi ordering), so the result equals a sequential run bit for bit; each member checks its
 * rows against one. Args: [N=64] [iterations=50] [omega=0.8].
 */
public final class Sor implements DsmApp {
    /** Result of one member's run. */
    public static final class Result {
        /** Iterations done. */
        public int iterations;
        /** Wall time of the iterations (ns). */
        public long nanos;
        /** Largest difference from the sequential reference over this member's rows. */
        public double maxError;
    }

    @Override
    public void run(Dsm dsm, String[] args) {
        String usage = "usage: Sor [N [ITERATIONS [OMEGA]]], 2 <= N <= 2048 (default 64), 1 <= ITERATIONS <="
                + " 1000000 (default 50), 0 < OMEGA < 2 (default 0.8)";
        DsmArgs.atMost(args, 3, usage);
        int n = DsmArgs.integer(args, 0, "N", 64, 2, 2048, usage);
        int iters = DsmArgs.integer(args, 1, "ITERATIONS", 50, 1, 1_000_000, usage);
        double omega = DsmArgs.real(args, 2, "OMEGA", 0.8, 0, 2, usage);
        Result r = solve(dsm, n, iters, omega);
        if (r.maxError != 0) {
            throw new IllegalStateException("SOR m" + dsm.rank() + ": result differs from the sequential run by "
                    + r.maxError);
        }
        System.out.printf(java.util.Locale.ROOT, "SOR m%d: %dx%d, %d iterations, %.1f iterations/s, result ok%n",
                dsm.rank(), n, n, iters, iters / (r.nanos / 1e9));
    }

    /** Runs the distributed SOR and checks this member's rows. */
    public static Result solve(Dsm dsm, int n, int iters, double omega) {
        return solve(dsm, n, iters, omega, true);
    }

    /** Runs the distributed SOR; checks this member's rows against a sequential run when {@code check}. */
    public static Result solve(Dsm dsm, int n, int iters, double omega, boolean check) {
        int p = dsm.members();
        int me = dsm.rank();
        int lo = me * n / p;
        int hi = (me + 1) * n / p;
        // border segments: [member][parity] top row and bottom row
        RandomSegment[][] top = new RandomSegment[p][2];
        RandomSegment[][] bottom = new RandomSegment[p][2];
        Eventcount[] ev = new Eventcount[p];
        for (int m = 0; m < p; m++) {
            for (int par = 0; par < 2; par++) {
                top[m][par] = dsm.createRandom(n * 8, Consistency.release());
                bottom[m][par] = dsm.createRandom(n * 8, Consistency.release());
            }
            ev[m] = dsm.createEvent();
        }
        Eventcount joined = dsm.createEvent();
        for (int par = 0; par < 2; par++) {
            if (me > 0) {
                dsm.needUpdates(bottom[me - 1][par]);
            }
            if (me < p - 1) {
                dsm.needUpdates(top[me + 1][par]);
            }
        }
        dsm.advance(joined);
        dsm.await(joined, p);

        double[][] g = initial(n);
        double[][] next = initial(n);
        double[] above = new double[n];
        double[] below = new double[n];
        long t0 = System.nanoTime();
        for (int it = 1; it <= iters; it++) {
            int par = it & 1;
            top[me][par].writeDoubles(0, g[lo], 0, n);
            bottom[me][par].writeDoubles(0, g[hi - 1], 0, n);
            dsm.putUpdates(top[me][par]);
            dsm.putUpdates(bottom[me][par]);
            dsm.advance(ev[me]);
            if (me > 0) {
                dsm.await(ev[me - 1], it);
                dsm.getUpdates(bottom[me - 1][par]);
                bottom[me - 1][par].readDoubles(0, above, 0, n);
            }
            if (me < p - 1) {
                dsm.await(ev[me + 1], it);
                dsm.getUpdates(top[me + 1][par]);
                top[me + 1][par].readDoubles(0, below, 0, n);
            }
            for (int i = Math.max(lo, 1); i < Math.min(hi, n - 1); i++) {
                double[] up = i - 1 < lo ? above : g[i - 1];
                double[] down = i + 1 >= hi ? below : g[i + 1];
                for (int j = 1; j < n - 1; j++) {
                    next[i][j] = (1 - omega) * g[i][j] + omega * 0.25 * (up[j] + down[j] + g[i][j - 1] + g[i][j + 1]);
                }
            }
            for (int i = lo; i < hi; i++) {
                System.arraycopy(next[i], 0, g[i], 0, n);
            }
        }
        Result r = new Result();
        r.nanos = System.nanoTime() - t0;
        r.iterations = iters;
        if (!check) {
            return r;
        }
        double[][] ref = sequential(n, iters, omega);
        for (int i = lo; i < hi; i++) {
            for (int j = 0; j < n; j++) {
                r.maxError = Math.max(r.maxError, Math.abs(ref[i][j] - g[i][j]));
            }
        }
        return r;
    }

    private static double[][] initial(int n) {
        double[][] g = new double[n][n];
        java.util.Arrays.fill(g[0], 1.0);
        return g;
    }

    /** The same computation on one processor. */
    public static double[][] sequential(int n, int iters, double omega) {
        double[][] g = initial(n);
        double[][] next = initial(n);
        for (int it = 0; it < iters; it++) {
            for (int i = 1; i < n - 1; i++) {
                for (int j = 1; j < n - 1; j++) {
                    next[i][j] = (1 - omega) * g[i][j]
                            + omega * 0.25 * (g[i - 1][j] + g[i + 1][j] + g[i][j - 1] + g[i][j + 1]);
                }
            }
            for (int i = 1; i < n - 1; i++) {
                System.arraycopy(next[i], 0, g[i], 0, n);
            }
        }
        return g;
    }
}
