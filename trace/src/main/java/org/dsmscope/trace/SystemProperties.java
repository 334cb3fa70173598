package org.dsmscope.trace;

import java.util.Locale;

/**
 * The one reader of dsmscope's {@code -Ddsmscope.*} system properties (tuning knobs of the replay, the commands and
 * the agent, each documented where its module's README documents the feature): an absent property gives its
 * default, a malformed or out-of-range one is a user's mistake, refused with one line naming the property, the value
 * and what is allowed ({@link BadInputException}: the command line exits with status 2), never read as the default.
 */
public final class SystemProperties {
    private SystemProperties() {
    }

    /** The value of {@code name}, trimmed, or null where it is not set (or set to nothing but blanks). */
    private static String raw(String name) {
        String v = System.getProperty(name);
        if (v == null) {
            return null;
        }
        v = v.trim();
        return v.isEmpty() ? null : v;
    }

    private static BadInputException bad(String name, String what) {
        return new BadInputException("-D" + name + "=" + System.getProperty(name) + ": " + what);
    }

    /** Whole number {@code name} from {@code min} to {@code max}, or {@code otherwise} where it is not set. */
    public static long longValue(String name, long otherwise, long min, long max) {
        String v = raw(name);
        if (v == null) {
            return otherwise;
        }
        long n;
        try {
            n = Long.parseLong(v.replace("_", ""));
        } catch (NumberFormatException e) {
            throw bad(name, "not a whole number (" + range(min, max) + ")");
        }
        if (n < min || n > max) {
            throw bad(name, "out of range (" + range(min, max) + ")");
        }
        return n;
    }

    /** {@link #longValue} for an {@code int}. */
    public static int intValue(String name, int otherwise, int min, int max) {
        return (int) longValue(name, otherwise, min, max);
    }

    /** What a whole number may be, for a message. */
    private static String range(long min, long max) {
        return max == Long.MAX_VALUE || max == Integer.MAX_VALUE ? "at least " + min : "from " + min + " to " + max;
    }

    /** {@code true} or {@code false} (any case), or {@code otherwise} where {@code name} is not set. */
    public static boolean booleanValue(String name, boolean otherwise) {
        String v = raw(name);
        if (v == null) {
            return otherwise;
        }
        switch (v.toLowerCase(Locale.ROOT)) {
            case "true":
                return true;
            case "false":
                return false;
            default:
                throw bad(name, "neither true nor false");
        }
    }

    /** One of {@code allowed} (exactly), or {@code otherwise} where {@code name} is not set. */
    public static String choice(String name, String otherwise, String... allowed) {
        String v = raw(name);
        if (v == null) {
            return otherwise;
        }
        for (String a : allowed) {
            if (a.equals(v)) {
                return a;
            }
        }
        throw bad(name, "not one of " + String.join(", ", allowed));
    }
}
