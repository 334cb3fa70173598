package org.dsmscope.examples;

/**
 * The seed's matrix multiply (seed 000 &sect;2, Figure 2 and Table 1: {@code mat_mul}, 256&times;256, 4 threads),
 * C = A &times; B with rows of C partitioned into contiguous blocks, one block per thread.
 *
 * <p>Sharing pattern: A and B are written once by the main thread and then only read by every thread (read-only
 * sharing); each row of C (its own array object) is written by exactly one thread and read only by the main thread
 * during verification, so a replay finds C's rows private to their thread in the compute phase. Synchronization:
 * spawn and join only. Entries are small integers held in doubles, so every product is exact and the check value
 * (a position-weighted sum of C) is the same for every thread count.
 */
public final class MatMul {
    /** Default matrix order, the seed's 256. */
    public static final int DEFAULT_SIZE = 256;
    private static final long SEED = 0x6D61746D756CL;

    private MatMul() {
    }

    /** Runs {@code MatMul [THREADS [SIZE]]}: SIZE is the matrix order n. */
    public static void main(String[] args) {
        Cli.main("MatMul", args, DEFAULT_SIZE, MatMul::run);
    }

    /** Multiplies two seeded n&times;n matrices of small integers on {@code threads} threads and checks C. */
    public static Result run(int threads, int n) {
        Cli.checkThreads(threads);
        UsageException.require(n >= 1 && n <= 4096, "size (matrix order) must be 1..4096, was " + n);
        Phases.begin(Phases.INIT);
        double[][] a = randomIntegerMatrix(n, new Prng(SEED));
        double[][] b = randomIntegerMatrix(n, new Prng(SEED + 1));
        double[][] c = new double[n][n];

        Phases.begin(Phases.COMPUTE);
        multiply(a, b, c, threads);

        Phases.begin(Phases.VERIFY);
        String problem = verify(a, b, c);
        return Result.checked(Long.toString(weightedSum(c)), "", problem);
    }

    /**
     * C = A &times; B for an n&times;m A, an m&times;q B and an n&times;q C, rows of C split over {@code threads}
     * threads (thread t computes rows [t&middot;n/p, (t+1)&middot;n/p)), inner-product (i, j, k) loop order.
     */
    public static void multiply(double[][] a, double[][] b, double[][] c, int threads) {
        int n = a.length;
        Team.run("matmul", threads, id -> multiplyRows(a, b, c, Team.lo(id, threads, n), Team.hi(id, threads, n)));
    }

    private static void multiplyRows(double[][] a, double[][] b, double[][] c, int rowLo, int rowHi) {
        int m = b.length;
        for (int i = rowLo; i < rowHi; i++) {
            double[] ai = a[i];
            double[] ci = c[i];
            for (int j = 0; j < ci.length; j++) {
                double s = 0.0;
                for (int k = 0; k < m; k++) {
                    s += ai[k] * b[k][j];
                }
                ci[j] = s;
            }
        }
    }

    /** An n&times;n matrix of integers in [-8, 8] from {@code rng}, row by row. */
    static double[][] randomIntegerMatrix(int n, Prng rng) {
        double[][] m = new double[n][n];
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < n; j++) {
                m[i][j] = rng.nextInt(17) - 8;
            }
        }
        return m;
    }

    /**
     * Checks C against A and B without a second multiply: every entry an integer, the total equal to
     * &Sigma;<sub>k</sub> (column sum k of A)(row sum k of B), and rows 0, n/2 and n-1 recomputed exactly.
     * Returns null when C is right, else what is wrong.
     */
    static String verify(double[][] a, double[][] b, double[][] c) {
        int n = a.length;
        long total = 0;
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < n; j++) {
                double v = c[i][j];
                if (v != Math.rint(v)) {
                    return "C[" + i + "][" + j + "] = " + v + " is not an integer";
                }
                total += (long) v;
            }
        }
        long expected = 0;
        for (int k = 0; k < n; k++) {
            long colA = 0;
            long rowB = 0;
            for (int i = 0; i < n; i++) {
                colA += (long) a[i][k];
                rowB += (long) b[k][i];
            }
            expected += colA * rowB;
        }
        if (total != expected) {
            return "sum of C is " + total + ", expected " + expected;
        }
        for (int i : new int[] {0, n / 2, n - 1}) {
            for (int j = 0; j < n; j++) {
                long s = 0;
                for (int k = 0; k < n; k++) {
                    s += (long) a[i][k] * (long) b[k][j];
                }
                if (c[i][j] != s) {
                    return "C[" + i + "][" + j + "] = " + c[i][j] + ", expected " + s;
                }
            }
        }
        return null;
    }

    /** &Sigma; C[i][j] &middot; (i&middot;n + j + 1), wrapping modulo 2^64: sensitive to where each value lands. */
    static long weightedSum(double[][] c) {
        long sum = 0;
        long w = 1;
        for (double[] row : c) {
            for (double v : row) {
                sum += (long) v * w++;
            }
        }
        return sum;
    }
}
