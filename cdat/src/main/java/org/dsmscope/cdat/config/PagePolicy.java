package org.dsmscope.cdat.config;

import java.util.Locale;

/**
 * Where CDAT places a page of memory (seed 000 §5.1, SPEC §6): the {@code page_policy} item of the configuration
 * file. Each policy has the seed's label, which is also how the configuration file writes it.
 */
public enum PagePolicy {
    /** Round Robin 1: page number mod number of nodes; the memory usage file is not used. */
    RR1("RR1"),
    /** Round Robin 2: RR1 with code pages replicated in every node that runs a thread (reads the memory usage file). */
    RR2("RR2"),
    /** Oracle: code replicated, private pages local to their owner, shared pages round-robin (memory usage file). */
    ORACLE("Oracle"),
    /** First Touch: a page lives in the node that references it first; the memory usage file is not used. */
    FIRST_TOUCH("1Touch");

    private final String label;

    PagePolicy(String label) {
        this.label = label;
    }

    /** The seed's label: {@code RR1}, {@code RR2}, {@code Oracle} or {@code 1Touch}. */
    public String label() {
        return label;
    }

    /**
     * The policy with this label, ignoring case ({@code oracle}, {@code 1TOUCH} are accepted).
     *
     * @throws IllegalArgumentException for any other text
     */
    public static PagePolicy parse(String label) {
        PagePolicy p = find(label);
        if (p == null) {
            throw new IllegalArgumentException("unknown page policy '" + label + "' (" + LABELS + ")");
        }
        return p;
    }

    /** The labels as an error message lists them. */
    static final String LABELS = "RR1, RR2, Oracle or 1Touch";

    /** The policy with this label ignoring case, or null. */
    static PagePolicy find(String label) {
        if (label == null) {
            return null;
        }
        String l = label.toLowerCase(Locale.ROOT);
        for (PagePolicy p : values()) {
            if (p.label.toLowerCase(Locale.ROOT).equals(l)) {
                return p;
            }
        }
        return null;
    }
}
