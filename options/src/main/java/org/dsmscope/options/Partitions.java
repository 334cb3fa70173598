package org.dsmscope.options;

import org.dsmscope.trace.BadInputException;

/** The number of analysis partitions {@code --partitions N} asks for (SPEC §4 "Partitioning"), checked. */
public final class Partitions {
    /** At most this many partitions. */
    public static final int MAX = 1024;

    private Partitions() {
    }

    /**
     * {@code given} ({@code --partitions}), or {@code whenZero} for 0 (one per core, or a cluster's default
     * parallelism); out of 1..{@value #MAX}, a {@link BadInputException} naming the option and the value given.
     */
    public static int count(int given, int whenZero) {
        int parts = given == 0 ? whenZero : given;
        if (parts < 1 || parts > MAX) {
            throw new BadInputException("option --partitions: value " + given + " out of range (0.." + MAX + ")");
        }
        return parts;
    }
}
