package org.dsmscope.examples;

/**
 * SplitMix64 (Steele, Lea and Flood, OOPSLA 2014): the seeded generator of every example's input.
 *
 * <p>The sequence is fixed by this code, not by a JDK version, so an example's input and its check value are the
 * same on every JVM. Not thread-safe: each generator belongs to one thread.
 */
public final class Prng {
    private static final long GOLDEN = 0x9E3779B97F4A7C15L;
    private long state;

    /** A generator whose sequence is determined by {@code seed}. */
    public Prng(long seed) {
        this.state = seed;
    }

    /** The next 64 random bits. */
    public long nextLong() {
        state += GOLDEN;
        return mix(state);
    }

    /** The next 32 random bits. */
    public int nextInt() {
        return (int) (nextLong() >>> 32);
    }

    /** A value in [0, bound) for bound &gt; 0 (multiply-shift; the bias is below 2^-32 and harmless here). */
    public int nextInt(int bound) {
        if (bound <= 0) {
            throw new IllegalArgumentException("bound must be positive, was " + bound);
        }
        return (int) (((nextLong() >>> 32) * bound) >>> 32);
    }

    /** A double in [0, 1) with 53 random bits. */
    public double nextDouble() {
        return (nextLong() >>> 11) * 0x1.0p-53;
    }

    /** SplitMix64's finalizer: a bijective mix of 64 bits, also used as a stateless hash. */
    public static long mix(long z) {
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }
}
