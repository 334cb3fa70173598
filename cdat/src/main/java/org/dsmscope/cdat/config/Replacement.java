package org.dsmscope.cdat.config;

import java.util.Locale;

/**
 * The replacement policy of a cache (the third field of {@code data_cache}, {@code instruction_cache} and
 * {@code interconnect_cache}): which line of a full set a miss evicts.
 */
public enum Replacement {
    /** Least recently used. */
    LRU,
    /** First in, first out: the line that was filled first. */
    FIFO,
    /** A pseudo-random line (the simulator's seeded generator, so runs are reproducible). */
    RANDOM;

    /** How the configuration file writes it: {@code lru}, {@code fifo} or {@code random}. */
    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }

    /**
     * The policy with this label, ignoring case.
     *
     * @throws IllegalArgumentException for any other text
     */
    public static Replacement parse(String label) {
        Replacement r = find(label);
        if (r == null) {
            throw new IllegalArgumentException("unknown replacement '" + label + "' (" + LABELS + ")");
        }
        return r;
    }

    /** The labels as an error message lists them. */
    static final String LABELS = "lru, fifo or random";

    /** The policy with this label ignoring case, or null. */
    static Replacement find(String label) {
        if (label == null) {
            return null;
        }
        for (Replacement r : values()) {
            if (r.name().equalsIgnoreCase(label)) {
                return r;
            }
        }
        return null;
    }
}
