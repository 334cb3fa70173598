package org.dsmscope.examples;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

class ConjugateGradientTest {

    @Test
    void gridMatrix_isSymmetric_withFiveEntriesPerInteriorRow() {
        int g = 5;
        ConjugateGradient.Csr a = ConjugateGradient.gridMatrix(g, new Prng(1));
        double[][] dense = new double[g * g][g * g];
        for (int i = 0; i < a.rows(); i++) {
            for (int e = a.rowStart[i]; e < a.rowStart[i + 1]; e++) {
                dense[i][a.column[e]] = a.value[e];
            }
        }
        for (int i = 0; i < g * g; i++) {
            for (int j = 0; j < g * g; j++) {
                assertEquals(dense[i][j], dense[j][i], 0.0);
            }
            assertTrue(dense[i][i] >= 4.0 && dense[i][i] < 5.0);
        }
        assertEquals(5, a.rowStart[2 * g + 3] - a.rowStart[2 * g + 2]); // interior row
        assertEquals(3, a.rowStart[1] - a.rowStart[0]); // corner row
        assertEquals(5 * g * g - 4 * g, a.value.length);
    }

    @Test
    void twoByTwoSystem_isSolvedExactlyInTwoIterations() {
        // [[4, -1], [-1, 4]] x = [3, 3] has x = [1, 1]; CG converges in at most n = 2 steps
        ConjugateGradient.Csr a = new ConjugateGradient.Csr(new int[] {0, 2, 4}, new int[] {0, 1, 0, 1},
                new double[] {4, -1, -1, 4});
        ConjugateGradient.Solution s = ConjugateGradient.solve(a, new double[] {3, 1}, 1e-14, 10, 2);
        assertTrue(s.converged());
        assertTrue(s.iterations() <= 2, "iterations " + s.iterations());
        assertArrayEquals(new double[] {13.0 / 15, 7.0 / 15}, s.x(), 1e-12);
    }

    @Test
    void residualBelowTolerance_onTheDefaultProblem() {
        Result r = ConjugateGradient.run(4, ConjugateGradient.DEFAULT_SIZE);
        assertTrue(r.ok(), r.detail());
        double residual = Double.parseDouble(r.detail().replaceAll(".*residual=", ""));
        assertTrue(residual < ConjugateGradient.TOLERANCE, r.detail());
    }

    @Test
    void iterationLimit_isReportedAsNotConverged() {
        ConjugateGradient.Csr a = ConjugateGradient.gridMatrix(12, new Prng(2));
        double[] b = new double[a.rows()];
        b[7] = 1.0;
        ConjugateGradient.Solution s = ConjugateGradient.solve(a, b, 1e-12, 2, 3);
        assertFalse(s.converged());
        assertEquals(2, s.iterations());
    }

    @Property(tries = 20)
    void solution_isBitIdenticalForEveryThreadCount(@ForAll @IntRange(min = 2, max = 40) int g,
                                                    @ForAll @IntRange(min = 2, max = 7) int threads) {
        ConjugateGradient.Csr a = ConjugateGradient.gridMatrix(g, new Prng(g));
        double[] b = new double[a.rows()];
        Prng rng = new Prng(-g);
        for (int i = 0; i < b.length; i++) {
            b[i] = rng.nextDouble();
        }
        ConjugateGradient.Solution one = ConjugateGradient.solve(a, b, 1e-10, 1000, 1);
        ConjugateGradient.Solution many = ConjugateGradient.solve(a, b, 1e-10, 1000, threads);
        assertTrue(one.converged());
        assertEquals(one.iterations(), many.iterations());
        assertArrayEquals(one.x(), many.x(), 0.0);
    }
}
