package org.dsmscope.ciat.memory;

import java.util.ArrayList;
import java.util.List;
import org.dsmscope.trace.BadInputException;

/**
 * The address ranges reserved for shared pages (seed 000 §4.5 item 3, Appendix B {@code -HPUX}, SPEC §5): a page
 * is in the shared range if its first byte lies in a declared shared range, or if private ranges are declared and
 * it lies in none of them. With no declaration nothing is range-shared by address (range-shared = shared).
 */
public final class AddressRanges {
    private final List<long[]> shared = new ArrayList<>();
    private final List<long[]> priv = new ArrayList<>();

    /** HP-UX's private range 0x40000000&ndash;0x7fffffff ({@code -HPUX}). */
    public AddressRanges hpux() {
        priv.add(new long[] {0x40000000L, 0x7fffffffL});
        return this;
    }

    /** Declares a private range, inclusive. */
    public AddressRanges addPrivate(long lo, long hi) {
        priv.add(new long[] {lo, hi});
        return this;
    }

    /** Declares a shared range, inclusive. */
    public AddressRanges addShared(long lo, long hi) {
        shared.add(new long[] {lo, hi});
        return this;
    }

    /** True if anything is declared. */
    public boolean declared() {
        return !shared.isEmpty() || !priv.isEmpty();
    }

    /** True if {@code address} is in the range reserved for shared pages. */
    public boolean inSharedRange(long address) {
        for (long[] r : shared) {
            if (Long.compareUnsigned(address, r[0]) >= 0 && Long.compareUnsigned(address, r[1]) <= 0) {
                return true;
            }
        }
        if (priv.isEmpty()) {
            return false;
        }
        for (long[] r : priv) {
            if (Long.compareUnsigned(address, r[0]) >= 0 && Long.compareUnsigned(address, r[1]) <= 0) {
                return false;
            }
        }
        return true;
    }

    /** Parses {@code LO-HI} (hex with 0x, or decimal), inclusive; {@code option} names the option in errors. */
    public static long[] parse(String option, String text) {
        int dash = text.indexOf('-', 1);
        if (dash < 0) {
            throw new BadInputException("option " + option + ": '" + text + "' is not a range LO-HI");
        }
        long lo = number(option, text.substring(0, dash));
        long hi = number(option, text.substring(dash + 1));
        if (Long.compareUnsigned(lo, hi) > 0) {
            throw new BadInputException("option " + option + ": range " + text + " ends before it starts");
        }
        return new long[] {lo, hi};
    }

    private static long number(String option, String s) {
        String t = s.strip();
        try {
            if (t.startsWith("0x") || t.startsWith("0X")) {
                return Long.parseUnsignedLong(t.substring(2), 16);
            }
            return Long.parseUnsignedLong(t);
        } catch (NumberFormatException e) {
            throw new BadInputException("option " + option + ": '" + s + "' is not an address (hex 0x... or decimal)");
        }
    }
}
