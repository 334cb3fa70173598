package org.dsmscope.examples;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

class LuTest {

    @Test
    void twoByTwo_givesTheHandComputedFactors() {
        double[][] a = {{4, 3}, {6, 3}};
        Lu.factor(a, 2);
        assertArrayEquals(new double[] {4, 3}, a[0]); // U row 0
        assertArrayEquals(new double[] {1.5, -1.5}, a[1]); // L(1,0) = 1.5, U(1,1) = 3 - 1.5 * 3
    }

    @Test
    void solve_recoversAKnownSolution() {
        double[][] a = {{2, 1, 0}, {1, 3, 1}, {0, 1, 4}};
        double[] b = {4, 10, 14}; // A * (1, 2, 3)
        Lu.factor(a, 1);
        assertArrayEquals(new double[] {1, 2, 3}, Lu.solve(a, b), 1e-12);
    }

    @Test
    void threadGrid_isTheMostSquareFactorisation_andOwnersCoverEveryThread() {
        assertEquals(1, Lu.gridRows(1));
        assertEquals(1, Lu.gridRows(3));
        assertEquals(2, Lu.gridRows(4));
        assertEquals(2, Lu.gridRows(6));
        assertEquals(4, Lu.gridRows(16));
        boolean[] seen = new boolean[6];
        for (int i = 0; i < 4; i++) {
            for (int j = 0; j < 4; j++) {
                seen[Lu.owner(i, j, 2, 3)] = true;
            }
        }
        assertArrayEquals(new boolean[] {true, true, true, true, true, true}, seen);
    }

    @Property(tries = 30)
    void factorsMultiplyBackToTheMatrix_forAnyOrderAndThreadCount(@ForAll @IntRange(min = 1, max = 70) int n,
                                                                  @ForAll @IntRange(min = 1, max = 6) int threads,
                                                                  @ForAll long seed) {
        double[][] a = Lu.diagonallyDominant(n, new Prng(seed));
        double[][] lu = new double[n][];
        for (int i = 0; i < n; i++) {
            lu[i] = a[i].clone();
        }
        Lu.factor(lu, threads);
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < n; j++) {
                double s = 0;
                for (int k = 0; k <= Math.min(i, j); k++) {
                    double l = k == i ? 1.0 : lu[i][k];
                    s += l * lu[k][j];
                }
                assertEquals(a[i][j], s, 1e-9 * n);
            }
        }
    }

    @Property(tries = 20)
    void factors_areBitIdenticalForEveryThreadCount(@ForAll @IntRange(min = 1, max = 60) int n,
                                                    @ForAll @IntRange(min = 2, max = 9) int threads) {
        double[][] one = Lu.diagonallyDominant(n, new Prng(n));
        double[][] many = Lu.diagonallyDominant(n, new Prng(n));
        Lu.factor(one, 1);
        Lu.factor(many, threads);
        for (int i = 0; i < n; i++) {
            assertArrayEquals(one[i], many[i], 0.0);
        }
    }
}
