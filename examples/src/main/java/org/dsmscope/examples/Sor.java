package org.dsmscope.examples;

import java.util.concurrent.CyclicBarrier;

/**
 * Red-black successive over-relaxation for Laplace's equation on an (n+2)&times;(n+2) grid (the nearest-neighbour
 * stencil pattern of SPLASH-2 Ocean's solver, added to the applications of seed 001 &sect;4), rows of the interior
 * split into contiguous blocks; serial initialization, parallel phase, wrap-up by thread 0 as in seed 001 &sect;4.
 *
 * <p>Sharing pattern: each thread writes only its own rows; at every half-sweep it reads the boundary rows of its
 * two neighbours (nearest-neighbour producer-consumer sharing), and the fixed boundary is read-only. Synchronization:
 * a {@code CyclicBarrier} after each half-sweep (two per iteration). A point of one colour depends only on points
 * of the other colour, which do not change during its half-sweep, so the result is bit-identical for every thread
 * count. The boundary holds a discrete-harmonic function (i&sup2; &minus; j&sup2; + 3ij)/(n+1)&sup2;, which is then
 * also the exact discrete solution: the self-check bounds the error against it.
 */
public final class Sor {
    /** Default interior grid side. */
    public static final int DEFAULT_SIZE = 128;
    /** Iterations per grid line: with the optimal relaxation factor 4(n+1) sweeps leave an error near 4e-10. */
    static final int ITERATIONS_PER_LINE = 4;
    /** Largest error against the exact solution (values up to 4) that passes. */
    static final double TOLERANCE = 1e-8;

    private Sor() {
    }

    /** Runs {@code Sor [THREADS [SIZE]]}: SIZE is the interior grid side n. */
    public static void main(String[] args) {
        Cli.main("Sor", args, DEFAULT_SIZE, Sor::run);
    }

    /** Solves on an n&times;n interior grid with {@code threads} threads and checks against the exact solution. */
    public static Result run(int threads, int n) {
        Cli.checkThreads(threads);
        UsageException.require(n >= 2 && n <= 4096, "size (grid side) must be 2..4096, was " + n);
        Phases.begin(Phases.INIT);
        double[][] u = new double[n + 2][n + 2];
        for (int i = 0; i < n + 2; i++) {
            for (int j = 0; j < n + 2; j++) {
                boolean boundary = i == 0 || j == 0 || i == n + 1 || j == n + 1;
                u[i][j] = boundary ? exact(i, j, n) : 0.0;
            }
        }
        int iterations = ITERATIONS_PER_LINE * (n + 1);

        Phases.begin(Phases.COMPUTE);
        solve(u, iterations, omega(n), threads);

        Phases.begin(Phases.VERIFY);
        double sum = 0.0;
        double maxError = 0.0;
        for (int i = 1; i <= n; i++) {
            for (int j = 1; j <= n; j++) {
                sum += u[i][j];
                maxError = Math.max(maxError, Math.abs(u[i][j] - exact(i, j, n)));
            }
        }
        String detail = "iterations=" + iterations + " maxerror=" + Result.sci(maxError);
        String problem = maxError <= TOLERANCE ? null : "error " + maxError + " exceeds " + TOLERANCE;
        return Result.checked(Double.toString(sum), detail, problem);
    }

    /** The exact discrete solution at grid point (i, j): (i&sup2; &minus; j&sup2; + 3ij)/(n+1)&sup2;, at most 4. */
    static double exact(int i, int j, int n) {
        double h = n + 1.0;
        return ((double) i * i - (double) j * j + 3.0 * i * j) / (h * h);
    }

    /** The optimal over-relaxation factor 2/(1 + sin(&pi;/(n+1))) for the model problem. */
    static double omega(int n) {
        return 2.0 / (1.0 + StrictMath.sin(Math.PI / (n + 1)));
    }

    /**
     * Runs {@code iterations} red-black SOR sweeps over the interior of {@code u} (boundary held fixed), interior
     * rows split over {@code threads} threads, a barrier after each half-sweep.
     */
    public static void solve(double[][] u, int iterations, double omega, int threads) {
        int n = u.length - 2;
        CyclicBarrier barrier = new CyclicBarrier(threads);
        Team.run("sor", threads, id -> {
            int lo = 1 + Team.lo(id, threads, n);
            int hi = 1 + Team.hi(id, threads, n);
            for (int it = 0; it < iterations; it++) {
                sweep(u, lo, hi, 0, omega);
                barrier.await();
                sweep(u, lo, hi, 1, omega);
                barrier.await();
            }
        });
    }

    /** Updates the points of colour {@code color} ((i + j) mod 2) in rows [lo, hi). */
    private static void sweep(double[][] u, int lo, int hi, int color, double omega) {
        int cols = u[0].length - 1;
        double keep = 1.0 - omega;
        double quarter = 0.25 * omega;
        for (int i = lo; i < hi; i++) {
            double[] up = u[i - 1];
            double[] row = u[i];
            double[] down = u[i + 1];
            for (int j = 1 + ((i + color + 1) & 1); j < cols; j += 2) {
                row[j] = keep * row[j] + quarter * (up[j] + down[j] + row[j - 1] + row[j + 1]);
            }
        }
    }
}
