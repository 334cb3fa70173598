package org.dsmscope.ciat.age;

/**
 * Access-age distribution of one phase (seed 001 §5.2): the number of accesses with infinite age and a histogram
 * in powers of two: {@code buckets[k]} counts accesses with 2^(k-1) &lt; age &le; 2^k bytes ({@code buckets[0]}:
 * age 1). The CDF at 2^k is the sum of buckets 0..k.
 */
public final class AgeStats implements java.io.Serializable {
    private static final long serialVersionUID = 1L;
    /** Number of power-of-two buckets (ages up to 2^62 bytes). */
    public static final int BUCKETS = 63;
    /** Accesses whose age was computed (sampled mode: scaled estimate). */
    public long accesses;
    /** Accesses with infinite age (a first access of a location). */
    public long infinite;
    /** Histogram by ceil(log2(age)). */
    public final long[] buckets = new long[BUCKETS];

    /** Records one access of age {@code ageBytes} (-1 = infinite), with weight {@code w}. */
    public void record(long ageBytes, long w) {
        accesses += w;
        if (ageBytes < 0) {
            infinite += w;
        } else {
            buckets[bucket(ageBytes)] += w;
        }
    }

    /** ceil(log2(age)) for age ≥ 1. */
    public static int bucket(long age) {
        return age <= 1 ? 0 : 64 - Long.numberOfLeadingZeros(age - 1);
    }

    /** Adds another phase's distribution. */
    public void add(AgeStats o) {
        accesses += o.accesses;
        infinite += o.infinite;
        for (int k = 0; k < BUCKETS; k++) {
            buckets[k] += o.buckets[k];
        }
    }

    /** The index of the last non-empty bucket, -1 if every age was infinite. */
    public int lastBucket() {
        for (int k = BUCKETS - 1; k >= 0; k--) {
            if (buckets[k] != 0) {
                return k;
            }
        }
        return -1;
    }
}
