package org.dsmscope.options;

import java.io.Serializable;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.dsmscope.ciat.CiatOptions;
import org.dsmscope.ciat.age.AccessAge;
import org.dsmscope.ciat.memory.AddressRanges;
import org.dsmscope.trace.BadInputException;
import picocli.CommandLine.Option;

/**
 * CIAT's own options (seed 000 §4 and Appendix B, SPEC §5): the event trace, JSON, access age's scope, granularity
 * and sampling, the one-thread busy time, spin booking and address ranges; a picocli mixin of {@code dsmscope ciat}
 * and {@code dsmscope cluster ciat}. Serializable for the Spark tasks; the JSON file is the driver's alone.
 */
public final class CiatFlags implements Serializable {
    private static final long serialVersionUID = 1L;

    @Option(names = "-ciat_events", description = "write the communication event trace NAME.p.ciat_events")
    boolean events;

    @Option(names = "--json", paramLabel = "FILE", description = "also write the results as JSON")
    transient Path json;

    @Option(names = "--age-scope", paramLabel = "thread|global",
            description = "access age per thread's stream (default) or over the interleaved stream")
    String ageScope = "thread";

    @Option(names = "--age-granularity", paramLabel = "BYTES",
            description = "access-age location size, a power of two (default 1; e.g. 64 for line-sized caches)")
    int granularity = 1;

    @Option(names = "--sample", paramLabel = "RATE",
            description = "sampled access age (SHARDS) at this rate, 0 < RATE <= 1 (default 1: exact)")
    double sample = 1;

    @Option(names = "--busy1", paramLabel = "N", description = "busy time of a one-thread run, for the speedup")
    long busy1 = -1;

    @Option(names = "--spin-as-wait",
            description = "book spin-waiting as imbalance (lock spins: contention) instead of as spin time")
    boolean spinAsWait;

    @Option(names = "--private-range", paramLabel = "LO-HI", description = "a private address range (repeatable)")
    List<String> privateRanges = new ArrayList<>();

    @Option(names = "--shared-range", paramLabel = "LO-HI", description = "a shared address range (repeatable)")
    List<String> sharedRanges = new ArrayList<>();

    /** {@code --json FILE}, or null (not serialized: only the driver writes it). */
    public Path json() {
        return json;
    }

    /**
     * The CIAT options these flags give, with HP-UX's ranges where {@code hpux} ({@code -HPUX}); a bad scope or range
     * is a {@link BadInputException} naming the option; the ranges of values are checked by {@link
     * CiatOptions#validate}.
     */
    public CiatOptions ciatOptions(boolean hpux) {
        CiatOptions o = new CiatOptions();
        o.events = events;
        o.json = json;
        switch (ageScope.toLowerCase(Locale.ROOT)) {
            case "thread": o.ageScope = AccessAge.Scope.THREAD; break;
            case "global": o.ageScope = AccessAge.Scope.GLOBAL; break;
            default: throw new BadInputException("option --age-scope: '" + ageScope + "' is not thread or global");
        }
        o.ageGranularity = granularity;
        o.sampleRate = sample;
        o.busy1 = busy1;
        o.spinAsWait = spinAsWait;
        AddressRanges r = new AddressRanges();
        if (hpux) {
            r.hpux();
        }
        for (String s : privateRanges) {
            long[] lh = AddressRanges.parse("--private-range", s);
            r.addPrivate(lh[0], lh[1]);
        }
        for (String s : sharedRanges) {
            long[] lh = AddressRanges.parse("--shared-range", s);
            r.addShared(lh[0], lh[1]);
        }
        o.ranges = r;
        return o;
    }
}
