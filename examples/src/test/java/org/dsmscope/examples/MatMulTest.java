package org.dsmscope.examples;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

class MatMulTest {

    @Test
    void twoByTwo_matchesTheHandComputedProduct() {
        double[][] a = {{1, 2}, {3, 4}};
        double[][] b = {{5, 6}, {7, 8}};
        double[][] c = new double[2][2];
        MatMul.multiply(a, b, c, 2);
        assertArrayEquals(new double[] {19, 22}, c[0]);
        assertArrayEquals(new double[] {43, 50}, c[1]);
    }

    @Test
    void timesIdentity_givesTheMatrixBack_withMoreThreadsThanRows() {
        double[][] a = MatMul.randomIntegerMatrix(3, new Prng(7));
        double[][] id = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
        double[][] c = new double[3][3];
        MatMul.multiply(a, id, c, 5);
        for (int i = 0; i < 3; i++) {
            assertArrayEquals(a[i], c[i]);
        }
    }

    @Test
    void allOnes_giveNInEveryEntry_andWeightedSumInClosedForm() {
        int n = 5;
        double[][] ones = new double[n][n];
        for (double[] row : ones) {
            java.util.Arrays.fill(row, 1.0);
        }
        double[][] c = new double[n][n];
        MatMul.multiply(ones, ones, c, 3);
        for (double[] row : c) {
            assertArrayEquals(new double[] {5, 5, 5, 5, 5}, row);
        }
        // sum of n * w for w = 1..n^2
        assertEquals(5L * 25 * 26 / 2, MatMul.weightedSum(c));
        assertNull(MatMul.verify(ones, ones, c));
    }

    @Test
    void verify_reportsAWrongEntry() {
        double[][] a = MatMul.randomIntegerMatrix(4, new Prng(1));
        double[][] b = MatMul.randomIntegerMatrix(4, new Prng(2));
        double[][] c = new double[4][4];
        MatMul.multiply(a, b, c, 2);
        c[2][1] += 1.0;
        assertNotNull(MatMul.verify(a, b, c));
    }

    @Property(tries = 50)
    void product_equalsTheTripleLoopReference(@ForAll @IntRange(min = 1, max = 12) int n,
                                              @ForAll @IntRange(min = 1, max = 6) int threads,
                                              @ForAll long seed) {
        Prng rng = new Prng(seed);
        double[][] a = MatMul.randomIntegerMatrix(n, rng);
        double[][] b = MatMul.randomIntegerMatrix(n, rng);
        double[][] c = new double[n][n];
        MatMul.multiply(a, b, c, threads);
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < n; j++) {
                double s = 0;
                for (int k = 0; k < n; k++) {
                    s += a[i][k] * b[k][j];
                }
                assertEquals(s, c[i][j], 0.0);
            }
        }
    }
}
