package org.dsmscope.tdat;

import java.math.BigInteger;
import java.util.List;

/**
 * The figures of a TDAT run (module README "Definitions"). With n bins of width B, counts c_0 .. c_{n-1} and p
 * processors, the rate of bin k is r_k = c_k / (B × p); the average, minimum and maximum rate and the (population)
 * standard deviation are over all n bins, empty ones included. The density function is over the m bins with at
 * least one event (rate 0 left out, seed 001 §5.5 step 3), in N equal classes from 0 to the maximum rate: with w =
 * max / N, class k covers (k × w, (k + 1) × w]; its density is the fraction of the m bins in it, its distribution
 * the fraction in classes 0 .. k (step 4). Classes are found in exact integer arithmetic on the counts (r_k / w =
 * c_k × N / c_max), so a rate on a class boundary always falls in the lower class.
 */
public final class TdatResult {
    /** Bin width in clocks. */
    public final long binWidth;
    /** Processors (the rate divisor). */
    public final int processors;
    /** Number of classes of the density function. */
    public final int rateBins;
    /** Events counted. */
    public final long events;
    /** Number of bins (0 when there is no event). */
    public final int bins;
    /** Bins with at least one event. */
    public final int nonEmptyBins;
    /** The fewest events in a bin (0 when there is no event). */
    public final long minimumCount;
    /** The most events in a bin. */
    public final long maximumCount;
    /** Average rate over all bins: events / (bins × B × p); 0 when there is no event. */
    public final double averageRate;
    /** Smallest rate of a bin. */
    public final double minimumRate;
    /** Largest rate of a bin. */
    public final double maximumRate;
    /** Population standard deviation of the rates of all bins. */
    public final double standardDeviation;
    /** Non-empty bins in each class of the density function ({@link #rateBins} entries; none without events). */
    private final long[] classCounts;
    /** Non-empty bins in classes 0 .. k. */
    private final long[] cumulative;
    /** The inputs, in the order read. */
    public final List<Tdat.Input> inputs;
    /** The selection the events passed. */
    public final Selection selection;

    private TdatResult(long[] counts, TdatOptions o, List<Tdat.Input> inputs) {
        this.binWidth = o.binWidth;
        this.processors = o.processors;
        this.rateBins = o.rateBins;
        this.inputs = List.copyOf(inputs);
        this.selection = o.selection;
        this.bins = counts.length;
        long total = 0;
        long min = Long.MAX_VALUE;
        long max = 0;
        int nonEmpty = 0;
        for (long c : counts) {
            total += c;
            min = Math.min(min, c);
            max = Math.max(max, c);
            if (c > 0) {
                nonEmpty++;
            }
        }
        this.events = total;
        this.nonEmptyBins = nonEmpty;
        this.minimumCount = bins == 0 ? 0 : min;
        this.maximumCount = max;
        double d = divisor();
        if (bins == 0) {
            averageRate = 0;
            minimumRate = 0;
            maximumRate = 0;
            standardDeviation = 0;
            classCounts = new long[0];
            cumulative = classCounts;
            return;
        }
        double mean = (double) total / bins;
        double sum = 0;
        for (long c : counts) {
            double dev = c - mean;
            sum += dev * dev;
        }
        averageRate = mean / d;
        minimumRate = minimumCount / d;
        maximumRate = maximumCount / d;
        standardDeviation = Math.sqrt(sum / bins) / d;
        classCounts = new long[rateBins];
        for (long c : counts) {
            if (c > 0) {
                classCounts[rateClass(c, maximumCount, rateBins)]++;
            }
        }
        cumulative = new long[rateBins];
        long run = 0;
        for (int k = 0; k < rateBins; k++) {
            run += classCounts[k];
            cumulative[k] = run;
        }
    }

    /** The figures of bins with {@code counts} under {@code options}, from {@code inputs}. */
    public static TdatResult of(long[] counts, TdatOptions options, List<Tdat.Input> inputs) {
        return new TdatResult(counts, options, inputs);
    }

    /** B × p, the divisor of a bin's count that gives its rate. */
    public double divisor() {
        return (double) binWidth * processors;
    }

    /**
     * The class of a non-empty bin of {@code count} events (1 .. max) among {@code n} classes up to a maximum of
     * {@code max}: ceil(count × n / max) − 1.
     */
    static int rateClass(long count, long max, int n) {
        long num;
        try {
            num = Math.multiplyExact(count, (long) n);
        } catch (ArithmeticException e) {
            BigInteger q = BigInteger.valueOf(count).multiply(BigInteger.valueOf(n)).add(BigInteger.valueOf(max - 1))
                    .divide(BigInteger.valueOf(max));
            return q.intValueExact() - 1;
        }
        return (int) ((num - 1) / max);
    }

    /** The width of a class of the density function, max / N (0 without events). */
    public double classWidth() {
        return bins == 0 ? 0 : (double) maximumCount / rateBins / divisor();
    }

    /** The number of classes listed: {@link #rateBins}, or 0 without events. */
    public int classes() {
        return classCounts.length;
    }

    /** Non-empty bins in class {@code k}. */
    public long classCount(int k) {
        return classCounts[k];
    }

    /** The upper bound of class {@code k}, (k + 1) × max / N; the last class's is the maximum rate exactly. */
    public double upperBound(int k) {
        return (double) (k + 1) * maximumCount / rateBins / divisor();
    }

    /** The density of class {@code k}: its share of the non-empty bins. */
    public double density(int k) {
        return (double) classCounts[k] / nonEmptyBins;
    }

    /** The distribution function at the upper bound of class {@code k}: the share of non-empty bins in 0 .. k. */
    public double distribution(int k) {
        return (double) cumulative[k] / nonEmptyBins;
    }
}
