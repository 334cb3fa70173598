package org.dsmscope.examples;

import java.util.concurrent.CyclicBarrier;

/**
 * Blocked right-looking LU factorization without pivoting (the SPLASH-2 LU kernel's algorithm, the classic
 * workload of the CIAT study, seed 001 &sect;4) of a seeded diagonally dominant n&times;n matrix, with
 * 16&times;16 blocks assigned to threads in a 2-D scatter (block (I, J) belongs to thread
 * (I mod pr)&middot;pc + (J mod pc) on a pr&times;pc thread grid).
 *
 * <p>Sharing pattern: for each block step K the diagonal block is factored by its owner and read by the owners of
 * the K-th block row and column; those panels are then read by the owners of the trailing blocks (one-producer,
 * many-consumer sharing that moves as K advances). Rows are row arrays, so blocks of different owners share a row
 * object: false sharing at block edges. Synchronization: a {@code CyclicBarrier} after each of the three stages
 * of every step. Every block operation reads the same inputs in the same order whichever thread runs it, so the
 * factors are bit-identical for every thread count. Self-check: solve A x = A&middot;1 with the factors and bound
 * the error of x against 1.
 */
public final class Lu {
    /** Default matrix order. */
    public static final int DEFAULT_SIZE = 256;
    /** Block side. */
    public static final int BLOCK = 16;
    /** Largest |x_i - 1| that passes. */
    static final double TOLERANCE = 1e-9;
    private static final long SEED = 0x4C55L;

    private Lu() {
    }

    /** Runs {@code Lu [THREADS [SIZE]]}: SIZE is the matrix order n. */
    public static void main(String[] args) {
        Cli.main("Lu", args, DEFAULT_SIZE, Lu::run);
    }

    /** Factors a seeded diagonally dominant n&times;n matrix on {@code threads} threads and checks a solve. */
    public static Result run(int threads, int n) {
        Cli.checkThreads(threads);
        UsageException.require(n >= 1 && n <= 4096, "size (matrix order) must be 1..4096, was " + n);
        Phases.begin(Phases.INIT);
        double[][] a = diagonallyDominant(n, new Prng(SEED));
        double[] rhs = new double[n];
        for (int i = 0; i < n; i++) {
            double s = 0.0;
            for (int j = 0; j < n; j++) {
                s += a[i][j];
            }
            rhs[i] = s; // A times the vector of ones
        }

        Phases.begin(Phases.COMPUTE);
        factor(a, threads);

        Phases.begin(Phases.VERIFY);
        double[] x = solve(a, rhs);
        double maxError = 0.0;
        for (double xi : x) {
            maxError = Math.max(maxError, Math.abs(xi - 1.0));
        }
        double sum = 0.0;
        for (double[] row : a) {
            for (double v : row) {
                sum += v;
            }
        }
        String detail = "maxerror=" + Result.sci(maxError);
        String problem = maxError <= TOLERANCE ? null : "solution error " + maxError + " exceeds " + TOLERANCE;
        return Result.checked(Double.toString(sum), detail, problem);
    }

    /** An n&times;n matrix with entries in [-1, 1) and n added to the diagonal, so no pivoting is needed. */
    static double[][] diagonallyDominant(int n, Prng rng) {
        double[][] a = new double[n][n];
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < n; j++) {
                a[i][j] = 2.0 * rng.nextDouble() - 1.0;
            }
            a[i][i] += n;
        }
        return a;
    }

    /**
     * Overwrites the square matrix {@code a} with L (unit lower, below the diagonal) and U (upper) such that
     * A = LU, blocks of {@link #BLOCK} scattered over {@code threads} threads.
     */
    public static void factor(double[][] a, int threads) {
        int n = a.length;
        int nb = (n + BLOCK - 1) / BLOCK;
        int pr = gridRows(threads);
        int pc = threads / pr;
        CyclicBarrier barrier = new CyclicBarrier(threads);
        Team.run("lu", threads, id -> {
            for (int k = 0; k < nb; k++) {
                if (owner(k, k, pr, pc) == id) {
                    factorDiagonal(a, k);
                }
                barrier.await();
                for (int j = k + 1; j < nb; j++) {
                    if (owner(k, j, pr, pc) == id) {
                        solveRowBlock(a, k, j);
                    }
                }
                for (int i = k + 1; i < nb; i++) {
                    if (owner(i, k, pr, pc) == id) {
                        solveColumnBlock(a, k, i);
                    }
                }
                barrier.await();
                for (int i = k + 1; i < nb; i++) {
                    for (int j = k + 1; j < nb; j++) {
                        if (owner(i, j, pr, pc) == id) {
                            updateTrailing(a, k, i, j);
                        }
                    }
                }
                barrier.await();
            }
        });
    }

    /** The largest divisor of p that is at most &radic;p: the rows of the thread grid. */
    static int gridRows(int p) {
        int r = (int) Math.sqrt(p);
        while (p % r != 0) {
            r--;
        }
        return r;
    }

    /** The thread owning block (i, j) in the 2-D scatter over a pr&times;pc grid. */
    static int owner(int i, int j, int pr, int pc) {
        return (i % pr) * pc + (j % pc);
    }

    private static int end(int block, int n) {
        return Math.min(n, (block + 1) * BLOCK);
    }

    /** Unblocked LU of diagonal block (k, k). */
    private static void factorDiagonal(double[][] a, int k) {
        int lo = k * BLOCK;
        int hi = end(k, a.length);
        for (int p = lo; p < hi; p++) {
            double[] rowP = a[p];
            double pivot = rowP[p];
            for (int i = p + 1; i < hi; i++) {
                double[] rowI = a[i];
                double l = rowI[p] / pivot;
                rowI[p] = l;
                for (int j = p + 1; j < hi; j++) {
                    rowI[j] -= l * rowP[j];
                }
            }
        }
    }

    /** Block (k, j) &larr; L(k, k)^-1 &middot; block (k, j): forward substitution with the unit lower factor. */
    private static void solveRowBlock(double[][] a, int k, int j) {
        int lo = k * BLOCK;
        int hi = end(k, a.length);
        int cLo = j * BLOCK;
        int cHi = end(j, a.length);
        for (int p = lo; p < hi; p++) {
            double[] rowP = a[p];
            for (int i = p + 1; i < hi; i++) {
                double[] rowI = a[i];
                double l = rowI[p];
                for (int c = cLo; c < cHi; c++) {
                    rowI[c] -= l * rowP[c];
                }
            }
        }
    }

    /** Block (i, k) &larr; block (i, k) &middot; U(k, k)^-1: column-by-column substitution with the upper factor. */
    private static void solveColumnBlock(double[][] a, int k, int i) {
        int lo = k * BLOCK;
        int hi = end(k, a.length);
        int rLo = i * BLOCK;
        int rHi = end(i, a.length);
        for (int r = rLo; r < rHi; r++) {
            double[] row = a[r];
            for (int p = lo; p < hi; p++) {
                double l = row[p] / a[p][p];
                row[p] = l;
                double[] rowP = a[p];
                for (int c = p + 1; c < hi; c++) {
                    row[c] -= l * rowP[c];
                }
            }
        }
    }

    /** Block (i, j) &larr; block (i, j) &minus; L(i, k) &middot; U(k, j). */
    private static void updateTrailing(double[][] a, int k, int i, int j) {
        int kLo = k * BLOCK;
        int kHi = end(k, a.length);
        int cLo = j * BLOCK;
        int cHi = end(j, a.length);
        for (int r = i * BLOCK, rHi = end(i, a.length); r < rHi; r++) {
            double[] row = a[r];
            for (int p = kLo; p < kHi; p++) {
                double l = row[p];
                double[] rowP = a[p];
                for (int c = cLo; c < cHi; c++) {
                    row[c] -= l * rowP[c];
                }
            }
        }
    }

    /** Solves LU x = b with the factors in {@code lu} (forward then back substitution), serially. */
    public static double[] solve(double[][] lu, double[] b) {
        int n = lu.length;
        double[] x = b.clone();
        for (int i = 0; i < n; i++) {
            double s = x[i];
            for (int j = 0; j < i; j++) {
                s -= lu[i][j] * x[j];
            }
            x[i] = s;
        }
        for (int i = n - 1; i >= 0; i--) {
            double s = x[i];
            for (int j = i + 1; j < n; j++) {
                s -= lu[i][j] * x[j];
            }
            x[i] = s / lu[i][i];
        }
        return x;
    }
}
