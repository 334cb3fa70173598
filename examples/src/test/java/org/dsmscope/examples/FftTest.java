package org.dsmscope.examples;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

class FftTest {

    @Test
    void impulse_transformsToAllOnes() {
        int n = 64;
        double[] x = new double[2 * n];
        x[0] = 1.0;
        Fft.transform(x, Fft.roots(n), 3);
        for (int k = 0; k < n; k++) {
            assertEquals(1.0, x[2 * k], 1e-12);
            assertEquals(0.0, x[2 * k + 1], 1e-12);
        }
    }

    @Test
    void cosine_transformsToTwoPeaksOfHalfN() {
        int n = 256;
        int k0 = 5;
        double[] x = new double[2 * n];
        for (int j = 0; j < n; j++) {
            x[2 * j] = Math.cos(2 * Math.PI * k0 * j / n);
        }
        Fft.transform(x, Fft.roots(n), 4);
        for (int k = 0; k < n; k++) {
            double expected = k == k0 || k == n - k0 ? n / 2.0 : 0.0;
            assertEquals(expected, x[2 * k], 1e-9, "re " + k);
            assertEquals(0.0, x[2 * k + 1], 1e-9, "im " + k);
        }
    }

    @Test
    void shiftedImpulse_transformsToARootOfUnityRamp() {
        int n = 16;
        double[] x = new double[2 * n];
        x[2] = 1.0; // x_1 = 1: X_k = e^(-2 pi i k / n)
        Fft.transform(x, Fft.roots(n), 2);
        for (int k = 0; k < n; k++) {
            assertEquals(Math.cos(-2 * Math.PI * k / n), x[2 * k], 1e-12);
            assertEquals(Math.sin(-2 * Math.PI * k / n), x[2 * k + 1], 1e-12);
        }
    }

    @Test
    void rowFft_ofLength8_matchesTheDirectDft() {
        int n = 8;
        double[] roots = Fft.roots(n);
        Prng rng = new Prng(3);
        double[] x = new double[2 * n];
        for (int i = 0; i < 2 * n; i++) {
            x[i] = rng.nextDouble();
        }
        double[] y = x.clone();
        Fft.rowFft(y, 0, n, roots, 1);
        for (int k = 0; k < n; k++) {
            assertArrayEquals(Fft.directBin(x, roots, k), new double[] {y[2 * k], y[2 * k + 1]}, 1e-12);
        }
    }

    @Test
    void pointCountNotAPowerOfFour_isRejected() {
        assertThrows(IllegalArgumentException.class, () -> Fft.transform(new double[2 * 32], Fft.roots(32), 1));
        assertThrows(UsageException.class, () -> Fft.run(1, 32));
    }

    @Property(tries = 30)
    void transform_matchesTheDirectDft_andInverseRoundTrips(@ForAll @IntRange(min = 1, max = 5) int log4,
                                                            @ForAll @IntRange(min = 1, max = 6) int threads,
                                                            @ForAll long seed) {
        int n = 1 << (2 * log4);
        double[] roots = Fft.roots(n);
        Prng rng = new Prng(seed);
        double[] x = new double[2 * n];
        for (int i = 0; i < 2 * n; i++) {
            x[i] = 2 * rng.nextDouble() - 1;
        }
        double[] y = x.clone();
        Fft.transform(y, roots, threads);
        for (int k = 0; k < n; k++) {
            double[] d = Fft.directBin(x, roots, k);
            assertEquals(d[0], y[2 * k], 1e-9 * n);
            assertEquals(d[1], y[2 * k + 1], 1e-9 * n);
        }
        Fft.inverse(y, roots, threads);
        assertArrayEquals(x, y, 1e-12);
    }
}
