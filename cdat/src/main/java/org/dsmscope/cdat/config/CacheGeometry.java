package org.dsmscope.cdat.config;

import java.util.Objects;

/**
 * The shape of one cache: {@code size} bytes in lines of {@code lineSize} bytes, {@code associativity} lines per
 * set, and the replacement policy. The constructor checks only that the numbers are positive; a {@link CdatConfig}
 * accepts a geometry only if its line size is the configuration's {@code line_size}, its size is at most 1 GiB and
 * {@link #sets()} = size / (lineSize × associativity) is a whole power of two (1 for a fully associative cache).
 *
 * @param size bytes, 1 or more
 * @param lineSize bytes per line, 1 or more
 * @param associativity lines per set (ways), 1 or more
 * @param replacement which line of a full set a miss evicts
 */
public record CacheGeometry(long size, int lineSize, int associativity, Replacement replacement) {

    /** Checks that the numbers are positive and the replacement is given. */
    public CacheGeometry {
        Objects.requireNonNull(replacement, "replacement");
        if (size < 1 || lineSize < 1 || associativity < 1) {
            throw new IllegalArgumentException("cache geometry: size " + size + ", line size " + lineSize
                    + " and associativity " + associativity + " must all be 1 or more");
        }
    }

    /** Number of sets: size / (lineSize × associativity). */
    public int sets() {
        return (int) (size / ((long) lineSize * associativity));
    }

    /** Number of lines the cache holds: size / lineSize. */
    public long lines() {
        return size / lineSize;
    }

    /** True when the cache has one set (every line can hold any address). */
    public boolean fullyAssociative() {
        return sets() == 1;
    }

    /**
     * As the configuration file writes it: {@code SIZE ASSOCIATIVITY REPLACEMENT}, e.g. {@code 32K 4 lru}; the
     * associativity of a fully associative cache with more than one line is written {@code full}.
     */
    public String toText() {
        String ways = fullyAssociative() && associativity > 1 ? "full" : Integer.toString(associativity);
        return Sizes.format(size) + " " + ways + " " + replacement.label();
    }
}
