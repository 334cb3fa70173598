package org.dsmscope.examples.dsm;

import org.dsmscope.examples.UsageException;

/**
 * The DSM examples' arguments, checked before any segment is created: a value out of range or not a number is a
 * {@link UsageException} whose message is the program's usage line (the member reports it in one line, exit 2),
 * never a crash deep in the run (a negative size as a negative array size).
 */
final class DsmArgs {
    private DsmArgs() {
    }

    /** Argument {@code i} of {@code args} as an integer in [min, max], or {@code def} if absent. */
    static int integer(String[] args, int i, String name, int def, int min, int max, String usage) {
        if (args.length <= i) {
            return def;
        }
        long v;
        try {
            v = Long.parseLong(args[i].trim());
        } catch (NumberFormatException e) {
            throw new UsageException(name + " '" + args[i] + "' is not a whole number; " + usage);
        }
        if (v < min || v > max) {
            throw new UsageException(name + " " + v + " out of range (" + min + ".." + max + "); " + usage);
        }
        return (int) v;
    }

    /** Argument {@code i} of {@code args} as a number in the open interval (lo, hi), or {@code def} if absent. */
    static double real(String[] args, int i, String name, double def, double lo, double hi, String usage) {
        if (args.length <= i) {
            return def;
        }
        double v;
        try {
            v = Double.parseDouble(args[i].trim());
        } catch (NumberFormatException e) {
            throw new UsageException(name + " '" + args[i] + "' is not a number; " + usage);
        }
        if (!(v > lo && v < hi)) {
            throw new UsageException(name + " " + args[i] + " out of range (between " + lo + " and " + hi
                    + "); " + usage);
        }
        return v;
    }

    /** Refuses more than {@code max} arguments. */
    static void atMost(String[] args, int max, String usage) {
        if (args.length > max) {
            throw new UsageException("expected at most " + max + " argument" + (max == 1 ? "" : "s") + ", got "
                    + args.length + "; " + usage);
        }
    }
}
