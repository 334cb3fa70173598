package org.dsmscope.examples;

import java.util.concurrent.CyclicBarrier;

/**
 * Conjugate gradient on a sparse symmetric positive definite matrix in compressed sparse row form (the NPB CG
 * kernel's pattern, an application of the CIAT study, seed 001 &sect;4): the 5-point operator of a g&times;g grid with a seeded diagonal 4 + u, u in [0, 1), which is
 * strictly diagonally dominant. The right-hand side is A&middot;x* for a seeded x*, x starts at 0, and the
 * iteration stops when the residual falls below 10^-10 of the right-hand side.
 *
 * <p>Sharing pattern: rows are split into blocks of whole {@value #CHUNK}-row chunks. Each thread writes only its
 * own rows of q, x, r and p; the sparse product reads p at the neighbouring grid lines of adjacent threads
 * (nearest-neighbour sharing through an indirect index), and the matrix is read-only. Dot products are reductions:
 * each chunk's partial sum goes into a shared array and every thread adds the partials in chunk order, so every
 * scalar (and thus the whole iteration) is bit-identical for every thread count. Synchronization: three
 * {@code CyclicBarrier} waits per iteration. Self-check: the true residual |b &minus; Ax|/|b| and the error
 * against x*.
 */
public final class ConjugateGradient {
    /** Default grid side g (g&sup2; unknowns). */
    public static final int DEFAULT_SIZE = 128;
    /** Rows per reduction chunk; partial sums are formed per chunk so the sum order never depends on threads. */
    static final int CHUNK = 64;
    /** Relative residual at which the iteration stops. */
    static final double STOP = 1e-10;
    /** Largest true relative residual and largest |x - x*| that pass. */
    static final double TOLERANCE = 1e-8;
    private static final long SEED = 0x4347L;

    private ConjugateGradient() {
    }

    /** Runs {@code ConjugateGradient [THREADS [SIZE]]}: SIZE is the grid side g, the system has g&sup2; rows. */
    public static void main(String[] args) {
        Cli.main("ConjugateGradient", args, DEFAULT_SIZE, ConjugateGradient::run);
    }

    /** A sparse matrix in compressed sparse row form: row i's entries are at [rowStart[i], rowStart[i+1]). */
    public static final class Csr {
        /** Offsets of each row's first entry, length rows + 1. */
        public final int[] rowStart;
        /** Column index of each entry. */
        public final int[] column;
        /** Value of each entry. */
        public final double[] value;

        /** A matrix from its three arrays (not copied). */
        public Csr(int[] rowStart, int[] column, double[] value) {
            this.rowStart = rowStart;
            this.column = column;
            this.value = value;
        }

        /** The number of rows. */
        public int rows() {
            return rowStart.length - 1;
        }

        /** y = A x, serially. */
        public void multiply(double[] x, double[] y) {
            for (int i = 0; i < rows(); i++) {
                double s = 0.0;
                for (int e = rowStart[i]; e < rowStart[i + 1]; e++) {
                    s += value[e] * x[column[e]];
                }
                y[i] = s;
            }
        }
    }

    /** What a solve found: the solution, the iterations used and whether the stopping test was met. */
    public record Solution(double[] x, int iterations, boolean converged) {
    }

    /** Solves a seeded g&times;g-grid system on {@code threads} threads and checks the solution. */
    public static Result run(int threads, int g) {
        Cli.checkThreads(threads);
        UsageException.require(g >= 2 && g <= 2048, "size (grid side) must be 2..2048, was " + g);
        Phases.begin(Phases.INIT);
        Prng rng = new Prng(SEED);
        Csr a = gridMatrix(g, rng);
        int n = a.rows();
        double[] xStar = new double[n];
        for (int i = 0; i < n; i++) {
            xStar[i] = 2.0 * rng.nextDouble() - 1.0;
        }
        double[] b = new double[n];
        a.multiply(xStar, b);

        Phases.begin(Phases.COMPUTE);
        Solution s = solve(a, b, STOP, 20 * g + 100, threads);

        Phases.begin(Phases.VERIFY);
        double[] ax = new double[n];
        a.multiply(s.x(), ax);
        double rr = 0.0;
        double bb = 0.0;
        double maxError = 0.0;
        double sum = 0.0;
        for (int i = 0; i < n; i++) {
            rr += (b[i] - ax[i]) * (b[i] - ax[i]);
            bb += b[i] * b[i];
            maxError = Math.max(maxError, Math.abs(s.x()[i] - xStar[i]));
            sum += s.x()[i];
        }
        double residual = Math.sqrt(rr / bb);
        String detail = "iterations=" + s.iterations() + " residual=" + Result.sci(residual);
        String problem = null;
        if (!s.converged()) {
            problem = "no convergence in " + s.iterations() + " iterations";
        } else if (residual > TOLERANCE || maxError > TOLERANCE) {
            problem = "residual " + residual + ", error " + maxError + ", tolerance " + TOLERANCE;
        }
        return Result.checked(s.iterations() + ":" + sum, detail, problem);
    }

    /** The 5-point operator of a g&times;g grid (Dirichlet boundary) with diagonal 4 + u, u from {@code rng}. */
    public static Csr gridMatrix(int g, Prng rng) {
        int n = g * g;
        int[] rowStart = new int[n + 1];
        int[] column = new int[5 * n];
        double[] value = new double[5 * n];
        int e = 0;
        for (int i = 0; i < g; i++) {
            for (int j = 0; j < g; j++) {
                int row = i * g + j;
                rowStart[row] = e;
                if (i > 0) {
                    column[e] = row - g;
                    value[e++] = -1.0;
                }
                if (j > 0) {
                    column[e] = row - 1;
                    value[e++] = -1.0;
                }
                column[e] = row;
                value[e++] = 4.0 + rng.nextDouble();
                if (j < g - 1) {
                    column[e] = row + 1;
                    value[e++] = -1.0;
                }
                if (i < g - 1) {
                    column[e] = row + g;
                    value[e++] = -1.0;
                }
            }
        }
        rowStart[n] = e;
        return new Csr(rowStart, java.util.Arrays.copyOf(column, e), java.util.Arrays.copyOf(value, e));
    }

    /**
     * Solves A x = b by conjugate gradient from x = 0 on {@code threads} threads, stopping when
     * |r| &le; stop &middot; |b| or after {@code maxIterations}.
     */
    public static Solution solve(Csr a, double[] b, double stop, int maxIterations, int threads) {
        int n = a.rows();
        int chunks = (n + CHUNK - 1) / CHUNK;
        double[] x = new double[n];
        double[] r = new double[n];
        double[] p = new double[n];
        double[] q = new double[n];
        double[] pq = new double[chunks];
        double[] rr = new double[chunks];
        double bb = 0.0;
        for (int i = 0; i < n; i++) { // x = 0, so r = p = b
            r[i] = b[i];
            p[i] = b[i];
            bb += b[i] * b[i];
        }
        double limit = stop * stop * bb;
        double rho0 = bb;
        int[] outcome = new int[2]; // iterations, converged (1/0): written by thread 0 only
        CyclicBarrier barrier = new CyclicBarrier(threads);
        Team.run("cg", threads, id -> {
            int cLo = Team.lo(id, threads, chunks);
            int cHi = Team.hi(id, threads, chunks);
            int lo = Math.min(n, cLo * CHUNK);
            int hi = Math.min(n, cHi * CHUNK);
            double rho = rho0;
            int it = 0;
            boolean converged = rho <= limit;
            while (!converged && it < maxIterations) {
                for (int c = cLo; c < cHi; c++) {
                    double s = 0.0;
                    for (int i = c * CHUNK, end = Math.min(n, i + CHUNK); i < end; i++) {
                        double qi = 0.0;
                        for (int e = a.rowStart[i]; e < a.rowStart[i + 1]; e++) {
                            qi += a.value[e] * p[a.column[e]];
                        }
                        q[i] = qi;
                        s += p[i] * qi;
                    }
                    pq[c] = s;
                }
                barrier.await();
                double alpha = rho / sumInOrder(pq);
                for (int c = cLo; c < cHi; c++) {
                    double s = 0.0;
                    for (int i = c * CHUNK, end = Math.min(n, i + CHUNK); i < end; i++) {
                        x[i] += alpha * p[i];
                        r[i] -= alpha * q[i];
                        s += r[i] * r[i];
                    }
                    rr[c] = s;
                }
                barrier.await();
                double rhoNext = sumInOrder(rr);
                it++;
                converged = rhoNext <= limit;
                if (!converged) {
                    double beta = rhoNext / rho;
                    rho = rhoNext;
                    for (int i = lo; i < hi; i++) {
                        p[i] = r[i] + beta * p[i];
                    }
                    barrier.await();
                }
            }
            if (id == 0) {
                outcome[0] = it;
                outcome[1] = converged ? 1 : 0;
            }
        });
        return new Solution(x, outcome[0], outcome[1] == 1);
    }

    private static double sumInOrder(double[] partials) {
        double s = 0.0;
        for (double v : partials) {
            s += v;
        }
        return s;
    }
}
