package org.dsmscope.ciat;

import java.nio.file.Path;
import org.dsmscope.ciat.age.AccessAge;
import org.dsmscope.ciat.memory.AddressRanges;
import org.dsmscope.trace.BadInputException;

/**
 * CIAT's own options (seed 000 Appendix B {@code -ciat_events} and {@code -HPUX}, SPEC §5's additions). The
 * replay options ({@code -p}, {@code -i}, &hellip;) live in {@link org.dsmscope.replay.ReplayOptions}.
 */
public final class CiatOptions {
    /** {@code -ciat_events}: write the communication event trace. */
    public boolean events;
    /**
     * Called for each communication event with its access (a viewer's marks), or null; serial analysis only
     * (with partitions the events are merged after the replay, without their accesses).
     */
    public org.dsmscope.ciat.comm.CommEventListener listener;
    /** Address ranges for range-shared pages ({@code -HPUX}, {@code --private-range}, {@code --shared-range}). */
    public AddressRanges ranges = new AddressRanges();
    /** {@code --json FILE}, or null. */
    public Path json;
    /** {@code --age-scope}. */
    public AccessAge.Scope ageScope = AccessAge.Scope.THREAD;
    /** {@code --age-granularity} in bytes, a power of two. */
    public int ageGranularity = 1;
    /** {@code --sample RATE}: 1 = exact access age. */
    public double sampleRate = 1;
    /** {@code --busy1 N}: the one-thread busy time for the speedup; -1 = unknown. */
    public long busy1 = -1;
    /**
     * {@code --spin-as-wait}: book spin time (module README "Spin time") as imbalance, or contention for lock
     * spins, instead of as its own class.
     */
    public boolean spinAsWait;
    /** Write the output files (the report, memory usage file); tests and benchmarks may turn this off. */
    public boolean writeFiles = true;
    /**
     * Partitioned without a work profile (live streams, on-the-fly {@code to_ciat}): the number of data accesses
     * after which the pages are dealt by what those accesses touched (module README "Parallel analysis"); until
     * then partition 0 keeps the results of every page. 0 deals them round-robin at once.
     */
    public long livePlanAt = 1L << 24;

    /** Checks ranges; throws {@link BadInputException} naming the option. */
    public void validate() {
        if (ageGranularity < 1 || ageGranularity > (1 << 20) || Integer.bitCount(ageGranularity) != 1) {
            throw new BadInputException("option --age-granularity: value " + ageGranularity
                    + " out of range (a power of two from 1 to 1048576 bytes)");
        }
        if (!(sampleRate > 0) || sampleRate > 1 || (sampleRate < 1 && sampleRate < 1.0 / (1 << 20))) {
            throw new BadInputException("option --sample: value " + sampleRate
                    + " out of range (more than 0, at most 1; 1 = exact; at least 2^-20)");
        }
        if (livePlanAt < 0) {
            throw new IllegalArgumentException("livePlanAt: " + livePlanAt + " < 0");
        }
        if (busy1 < -1 || busy1 == 0) {
            throw new BadInputException("option --busy1: value " + busy1 + " out of range (at least 1 instruction)");
        }
    }
}
