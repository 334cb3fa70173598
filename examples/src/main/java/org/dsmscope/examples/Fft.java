package org.dsmscope.examples;

import java.util.concurrent.CyclicBarrier;

/**
 * One-dimensional complex FFT of n = m&sup2; points by the six-step method with three transposes (the SPLASH-2 FFT
 * kernel's structure, an application of the CIAT study, seed 001 &sect;4): the data is an m&times;m row-major matrix of interleaved (re, im) doubles; transpose, m
 * row FFTs of length m, multiply by twiddle factors, transpose, m row FFTs, transpose. Thread t owns a
 * contiguous block of rows in both buffers.
 *
 * <p>Sharing pattern: row FFTs and twiddles touch only the thread's own rows (private), while each transpose
 * fills the thread's own rows of the destination from a column of every other thread's rows (all-to-all
 * communication, the kernel's point). The root-of-unity table is written once by the main thread and read by all.
 * Synchronization: a {@code CyclicBarrier} after each step. Every row FFT and transpose reads the same values in
 * the same order whichever thread runs it, so the output is bit-identical for every thread count. Self-check:
 * selected bins against a direct DFT, Parseval's identity, and an inverse transform back to the input.
 */
public final class Fft {
    /** Default number of complex points (256&sup2;). */
    public static final int DEFAULT_SIZE = 1 << 16;
    /** Largest relative error that passes (bins, Parseval, round trip). */
    static final double TOLERANCE = 1e-9;
    private static final long SEED = 0x464654L;

    private Fft() {
    }

    /** Runs {@code Fft [THREADS [SIZE]]}: SIZE is the number of complex points, a power of 4 (4, 16, 64, ...). */
    public static void main(String[] args) {
        Cli.main("Fft", args, DEFAULT_SIZE, Fft::run);
    }

    /** Transforms a seeded random complex signal of {@code n} points on {@code threads} threads and checks it. */
    public static Result run(int threads, int n) {
        Cli.checkThreads(threads);
        UsageException.require(n >= 4 && n <= (1 << 22) && Integer.bitCount(n) == 1
                        && Integer.numberOfTrailingZeros(n) % 2 == 0,
                "size (points) must be a power of 4 from 4 to " + (1 << 22) + ", was " + n);
        Phases.begin(Phases.INIT);
        double[] roots = roots(n);
        double[] input = new double[2 * n];
        Prng rng = new Prng(SEED);
        for (int i = 0; i < 2 * n; i++) {
            input[i] = 2.0 * rng.nextDouble() - 1.0;
        }
        double[] x = input.clone();

        Phases.begin(Phases.COMPUTE);
        transform(x, roots, threads);

        Phases.begin(Phases.VERIFY);
        double scale = Math.sqrt(n); // typical |X_k| of a random signal with entries in [-1, 1)
        double binError = 0.0;
        for (int b = 0; b < 8; b++) {
            int k = (int) ((long) b * 2654435761L % n);
            double[] direct = directBin(input, roots, k);
            binError = Math.max(binError, Math.hypot(x[2 * k] - direct[0], x[2 * k + 1] - direct[1]) / scale);
        }
        double energyIn = 0.0;
        double energyOut = 0.0;
        for (int i = 0; i < 2 * n; i++) {
            energyIn += input[i] * input[i];
            energyOut += x[i] * x[i];
        }
        double parsevalError = Math.abs(energyOut / n - energyIn) / energyIn;
        double checksum = 0.0;
        for (int k = 0; k < n; k++) {
            checksum += x[2 * k] * (k % 17 + 1) + x[2 * k + 1] * (k % 13 + 1);
        }
        double[] back = x.clone();
        inverse(back, roots, 1); // serial: the wrap-up phase runs on thread 0 alone
        double roundTripError = 0.0;
        for (int i = 0; i < 2 * n; i++) {
            roundTripError = Math.max(roundTripError, Math.abs(back[i] - input[i]));
        }
        double worst = Math.max(binError, Math.max(parsevalError, roundTripError));
        String detail = "maxerror=" + Result.sci(worst);
        String problem = worst <= TOLERANCE ? null
                : "bin error " + binError + ", Parseval error " + parsevalError
                        + ", round-trip error " + roundTripError;
        return Result.checked(Double.toString(checksum), detail, problem);
    }

    /** The table of e^(-2&pi;i t/n) for t in [0, n), interleaved (re, im), from StrictMath so it never varies. */
    public static double[] roots(int n) {
        double[] w = new double[2 * n];
        for (int t = 0; t < n; t++) {
            double angle = -2.0 * Math.PI * t / n;
            w[2 * t] = StrictMath.cos(angle);
            w[2 * t + 1] = StrictMath.sin(angle);
        }
        return w;
    }

    /**
     * In place, X_k = &Sigma;_j x_j e^(-2&pi;i jk/n) for interleaved x of n = m&sup2; points on {@code threads}
     * threads; {@code roots} comes from {@link #roots(int)}.
     */
    public static void transform(double[] x, double[] roots, int threads) {
        int n = x.length / 2;
        int m = (int) Math.round(Math.sqrt(n));
        if (m * m != n || Integer.bitCount(m) != 1) {
            throw new IllegalArgumentException("point count must be a power of 4, was " + n);
        }
        double[] scratch = new double[2 * n];
        CyclicBarrier barrier = new CyclicBarrier(threads);
        Team.run("fft", threads, id -> {
            int lo = Team.lo(id, threads, m);
            int hi = Team.hi(id, threads, m);
            transpose(x, scratch, m, lo, hi);      // scratch[j2][j1] = x[j1][j2]
            barrier.await();
            for (int r = lo; r < hi; r++) {
                rowFft(scratch, r * m, m, roots, n / m);
                twiddle(scratch, r, m, roots);     // scratch[j2][k1] *= w_n^(j2 k1)
            }
            barrier.await();
            transpose(scratch, x, m, lo, hi);      // x[k1][j2] = scratch[j2][k1]
            barrier.await();
            for (int r = lo; r < hi; r++) {
                rowFft(x, r * m, m, roots, n / m);
            }
            barrier.await();
            transpose(x, scratch, m, lo, hi);      // scratch[k2][k1] = x[k1][k2]: X at k1 + m k2
            barrier.await();
            for (int i = 2 * lo * m; i < 2 * hi * m; i++) {
                x[i] = scratch[i];                 // own rows back into x (a loop, so level 2 sees it)
            }
        });
    }

    /** In place, the inverse transform x_j = (1/n) &Sigma;_k X_k e^(2&pi;i jk/n), via conjugation. */
    public static void inverse(double[] x, double[] roots, int threads) {
        int n = x.length / 2;
        for (int i = 1; i < 2 * n; i += 2) {
            x[i] = -x[i];
        }
        transform(x, roots, threads);
        for (int i = 0; i < 2 * n; i += 2) {
            x[i] /= n;
            x[i + 1] = -x[i + 1] / n;
        }
    }

    /** Rows [lo, hi) of dst &larr; columns [lo, hi) of src, both m&times;m complex matrices. */
    private static void transpose(double[] src, double[] dst, int m, int lo, int hi) {
        for (int r = lo; r < hi; r++) {
            int d = 2 * r * m;
            for (int c = 0; c < m; c++) {
                int s = 2 * (c * m + r);
                dst[d + 2 * c] = src[s];
                dst[d + 2 * c + 1] = src[s + 1];
            }
        }
    }

    /** Multiplies element k1 of row j2 by e^(-2&pi;i j2 k1/n) (j2 k1 &lt; n, so no reduction is needed). */
    private static void twiddle(double[] a, int j2, int m, double[] roots) {
        int base = 2 * j2 * m;
        for (int k1 = 0; k1 < m; k1++) {
            int t = 2 * j2 * k1;
            double wr = roots[t];
            double wi = roots[t + 1];
            double re = a[base + 2 * k1];
            double im = a[base + 2 * k1 + 1];
            a[base + 2 * k1] = re * wr - im * wi;
            a[base + 2 * k1 + 1] = re * wi + im * wr;
        }
    }

    /**
     * Iterative radix-2 FFT of the {@code m} complex points starting at complex index {@code start}, using every
     * {@code stride}-th entry of the n-point root table as the m-point roots.
     */
    static void rowFft(double[] a, int start, int m, double[] roots, int stride) {
        int base = 2 * start;
        for (int i = 1, j = 0; i < m; i++) {
            int bit = m >> 1;
            for (; (j & bit) != 0; bit >>= 1) {
                j ^= bit;
            }
            j ^= bit;
            if (i < j) {
                swap(a, base + 2 * i, base + 2 * j);
                swap(a, base + 2 * i + 1, base + 2 * j + 1);
            }
        }
        for (int len = 2; len <= m; len <<= 1) {
            int half = len >> 1;
            int step = stride * (m / len);
            for (int s = 0; s < m; s += len) {
                for (int k = 0; k < half; k++) {
                    double wr = roots[2 * k * step];
                    double wi = roots[2 * k * step + 1];
                    int u = base + 2 * (s + k);
                    int v = base + 2 * (s + k + half);
                    double vr = a[v] * wr - a[v + 1] * wi;
                    double vi = a[v] * wi + a[v + 1] * wr;
                    a[v] = a[u] - vr;
                    a[v + 1] = a[u + 1] - vi;
                    a[u] += vr;
                    a[u + 1] += vi;
                }
            }
        }
    }

    private static void swap(double[] a, int i, int j) {
        double t = a[i];
        a[i] = a[j];
        a[j] = t;
    }

    /** Bin k of the DFT of interleaved x computed directly: O(n), the reference for the self-check. */
    static double[] directBin(double[] x, double[] roots, int k) {
        int n = x.length / 2;
        double re = 0.0;
        double im = 0.0;
        for (int j = 0; j < n; j++) {
            int t = (int) ((long) j * k % n);
            double wr = roots[2 * t];
            double wi = roots[2 * t + 1];
            re += x[2 * j] * wr - x[2 * j + 1] * wi;
            im += x[2 * j] * wi + x[2 * j + 1] * wr;
        }
        return new double[] {re, im};
    }
}
