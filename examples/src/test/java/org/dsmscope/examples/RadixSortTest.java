package org.dsmscope.examples;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Arrays;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

class RadixSortTest {

    @Test
    void signedKeys_sortNegativesFirst_includingTheExtremes() {
        int[] keys = {5, -1, Integer.MAX_VALUE, 0, Integer.MIN_VALUE, 256, -256, 5};
        RadixSort.sort(keys, 3);
        assertArrayEquals(new int[] {Integer.MIN_VALUE, -256, -1, 0, 5, 5, 256, Integer.MAX_VALUE}, keys);
    }

    @Test
    void emptyAndSingleKey_areSortedWithAnyThreadCount() {
        int[] none = {};
        RadixSort.sort(none, 4);
        assertEquals(0, none.length);
        int[] one = {42};
        RadixSort.sort(one, 4);
        assertArrayEquals(new int[] {42}, one);
    }

    @Test
    void digit_flipsTheSignBitOfTheTopDigitOnly() {
        assertEquals(0x56, RadixSort.digit(0x12345678, 1));
        assertEquals(0x92, RadixSort.digit(0x12345678, 3));
        assertEquals(0x7F, RadixSort.digit(-1, 3));
    }

    @Property(tries = 60)
    void sort_equalsArraysSort(@ForAll int[] keys, @ForAll @IntRange(min = 1, max = 8) int threads) {
        int[] expected = keys.clone();
        Arrays.sort(expected);
        RadixSort.sort(keys, threads);
        assertArrayEquals(expected, keys);
    }

    @Property(tries = 20)
    void sort_equalsArraysSort_onLargerInputsWithFewDistinctKeys(@ForAll @IntRange(min = 0, max = 5000) int n,
                                                                  @ForAll @IntRange(min = 1, max = 5) int threads,
                                                                  @ForAll long seed) {
        Prng rng = new Prng(seed);
        int[] keys = new int[n];
        for (int i = 0; i < n; i++) {
            keys[i] = rng.nextInt(20) - 10;
        }
        int[] expected = keys.clone();
        Arrays.sort(expected);
        RadixSort.sort(keys, threads);
        assertArrayEquals(expected, keys);
    }
}
