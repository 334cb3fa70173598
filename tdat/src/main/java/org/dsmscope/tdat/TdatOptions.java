package org.dsmscope.tdat;

import org.dsmscope.trace.BadInputException;

/** The parameters of a TDAT run: bin width, processors (the rate divisor), rate classes and the selection. */
public final class TdatOptions {
    /** Default number of classes of the rate density function ({@code --rate-bins}). */
    public static final int DEFAULT_RATE_BINS = 50;
    /** Most classes of the rate density function. */
    public static final int MAX_RATE_BINS = 10_000;

    /** Bin width in clocks (instructions), {@code BIN}; positive. */
    public long binWidth;
    /** Number of processors, {@code p}: rate = events / (BIN × p); positive. */
    public int processors;
    /** Classes of the rate density function, 1 .. {@value #MAX_RATE_BINS}. */
    public int rateBins = DEFAULT_RATE_BINS;
    /** Which events count. */
    public Selection selection = Selection.all();

    /** Options for {@code BIN} and {@code p}, everything else at its default. */
    public static TdatOptions of(long binWidth, int processors) {
        TdatOptions o = new TdatOptions();
        o.binWidth = binWidth;
        o.processors = processors;
        return o;
    }

    /** Checks the values; a bad one is a {@link BadInputException} naming it. */
    public void validate() {
        if (binWidth <= 0) {
            throw new BadInputException("tdat: BIN " + binWidth + " is not a positive integer");
        }
        if (processors <= 0) {
            throw new BadInputException("tdat: p " + processors + " is not a positive integer");
        }
        if (rateBins < 1 || rateBins > MAX_RATE_BINS) {
            throw new BadInputException("option --rate-bins: value " + rateBins + " out of range (1.."
                    + MAX_RATE_BINS + ")");
        }
        if (selection == null) {
            throw new IllegalArgumentException("no selection");
        }
    }

    /**
     * A positive integer command-line argument ({@code BIN}, {@code p}) of at most {@code max}; anything else is a
     * {@link BadInputException} naming it.
     */
    public static long positive(String name, String text, long max) {
        long v;
        try {
            v = Long.parseLong(text.trim());
        } catch (NumberFormatException e) {
            v = -1;
        }
        if (v <= 0) {
            throw new BadInputException("tdat: " + name + " '" + text + "' is not a positive integer");
        }
        if (v > max) {
            throw new BadInputException("tdat: " + name + " " + v + " is too large (at most " + max + ")");
        }
        return v;
    }
}
