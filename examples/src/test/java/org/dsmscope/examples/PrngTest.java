package org.dsmscope.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

class PrngTest {

    @Test
    void seedZero_givesSplitMix64sPublishedFirstOutputs() {
        Prng rng = new Prng(0);
        assertEquals(0xE220A8397B1DCDAFL, rng.nextLong());
        assertEquals(0x6E789E6AA1B965F4L, rng.nextLong());
        assertEquals(0x06C45D188009454FL, rng.nextLong());
    }

    @Test
    void nonPositiveBound_isRejected() {
        assertThrows(IllegalArgumentException.class, () -> new Prng(1).nextInt(0));
    }

    @Property(tries = 200)
    void boundedValues_stayInRange(@ForAll long seed, @ForAll @IntRange(min = 1) int bound) {
        Prng rng = new Prng(seed);
        int v = rng.nextInt(bound);
        double d = rng.nextDouble();
        assertTrue(v >= 0 && v < bound);
        assertTrue(d >= 0.0 && d < 1.0);
    }
}
