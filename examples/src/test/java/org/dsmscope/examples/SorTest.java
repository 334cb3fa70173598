package org.dsmscope.examples;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

class SorTest {

    @Test
    void exactSolution_isDiscreteHarmonic() {
        int n = 9;
        for (int i = 1; i <= n; i++) {
            for (int j = 1; j <= n; j++) {
                double lap = Sor.exact(i - 1, j, n) + Sor.exact(i + 1, j, n) + Sor.exact(i, j - 1, n)
                        + Sor.exact(i, j + 1, n) - 4 * Sor.exact(i, j, n);
                assertEquals(0.0, lap, 1e-14);
            }
        }
    }

    @Test
    void solution_convergesToTheExactSolution() {
        Result r = Sor.run(2, 24);
        assertTrue(r.ok(), r.detail());
        // the exact discrete solution's interior sum, to the self-check's tolerance
        double exactSum = 0;
        for (int i = 1; i <= 24; i++) {
            for (int j = 1; j <= 24; j++) {
                exactSum += Sor.exact(i, j, 24);
            }
        }
        assertEquals(exactSum, Double.parseDouble(r.check()), 24 * 24 * Sor.TOLERANCE);
    }

    @Test
    void omegaOne_isGaussSeidel_soOneHalfSweepAveragesFourNeighbours() {
        double[][] u = new double[3][3];
        u[0][1] = 4;
        u[1][0] = 8;
        Sor.solve(u, 1, 1.0, 1);
        assertEquals(3.0, u[1][1], 0.0); // (4 + 8 + 0 + 0) / 4; (1,1) is red
    }

    @Property(tries = 40)
    void anyThreadCount_givesBitIdenticalGridsToTheSerialReference(@ForAll @IntRange(min = 2, max = 20) int n,
                                                                   @ForAll @IntRange(min = 1, max = 7) int threads,
                                                                   @ForAll @IntRange(min = 1, max = 6) int iterations,
                                                                   @ForAll long seed) {
        double[][] u = new double[n + 2][n + 2];
        Prng rng = new Prng(seed);
        for (double[] row : u) {
            for (int j = 0; j < row.length; j++) {
                row[j] = rng.nextDouble();
            }
        }
        double[][] ref = new double[n + 2][];
        for (int i = 0; i < n + 2; i++) {
            ref[i] = u[i].clone();
        }
        double omega = Sor.omega(n);
        Sor.solve(u, iterations, omega, threads);
        for (int it = 0; it < iterations; it++) {
            for (int color = 0; color < 2; color++) {
                for (int i = 1; i <= n; i++) {
                    for (int j = 1; j <= n; j++) {
                        if ((i + j) % 2 == color) {
                            ref[i][j] = (1 - omega) * ref[i][j]
                                    + 0.25 * omega * (ref[i - 1][j] + ref[i + 1][j] + ref[i][j - 1] + ref[i][j + 1]);
                        }
                    }
                }
            }
        }
        for (int i = 0; i < n + 2; i++) {
            assertArrayEquals(ref[i], u[i], 0.0);
        }
    }
}
