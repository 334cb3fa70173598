package org.dsmscope.cluster;

import java.io.PrintWriter;
import java.io.Serializable;
import java.nio.channels.ReadableByteChannel;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.function.Function;
import java.util.function.IntFunction;
import org.dsmscope.ciat.Ciat;
import org.dsmscope.ciat.CiatOptions;
import org.dsmscope.ciat.CiatPart;
import org.dsmscope.ciat.CiatResult;
import org.dsmscope.ciat.CiatRouter;
import org.dsmscope.ciat.Partitioned;
import org.dsmscope.ciat.age.AccessAge;
import org.dsmscope.ciat.comm.CommStats;
import org.dsmscope.ciat.memory.AddressRanges;
import org.dsmscope.replay.Replay;
import org.dsmscope.replay.ReplayContext;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code dsmscope cluster ciat}: CIAT (seed 000 §4, SPEC §5) in partitions on a Spark cluster (SPEC §4
 * "Partitioning", ciat/README.md "Parallel analysis"): the prescan and plan on the driver, partition k of N in
 * Spark task k ({@link CiatPart} back), {@link Partitioned#mergeAndWriteParts} on the driver. The report, memory
 * usage file, event trace and JSON are those of {@code dsmscope ciat} on the same traces and options.
 */
@Command(name = "ciat", sortOptions = false, separator = " ",
        description = {"CIAT on a Spark cluster; outputs identical to dsmscope ciat's. Form:",
            "  ciat [--master URL] [options] [CALLS_URI] TRACE_URI"})
final class CiatJob extends PartitionJob implements Callable<Integer> {
    private static final long serialVersionUID = 1L;

    @Parameters(arity = "1..2", paramLabel = "TRACES",
            description = "[CALLS_URI] TRACE_URI: the call and detailed trace sets (NAME.p: files NAME.p.0 ...)")
    List<String> sets = new ArrayList<>();

    @CommandLine.Mixin
    ReplayFlags flags = new ReplayFlags();

    @CommandLine.Mixin
    transient SparkFlags spark = new SparkFlags();

    @Option(names = "-ciat_events", description = "write the communication event trace NAME.p.ciat_events")
    boolean events;

    @Option(names = "--json", paramLabel = "FILE", description = "also write the results as JSON (on the driver)")
    String json;

    @Option(names = "--age-scope", paramLabel = "thread|global",
            description = "access age per thread's stream (default) or over the interleaved stream")
    String ageScope = "thread";

    @Option(names = "--age-granularity", paramLabel = "BYTES",
            description = "access-age location size, a power of two (default 1)")
    int granularity = 1;

    @Option(names = "--sample", paramLabel = "RATE", description = "sampled access age (SHARDS) at this rate")
    double sample = 1;

    @Option(names = "--busy1", paramLabel = "N", description = "busy time of a one-thread run, for the speedup")
    long busy1 = -1;

    @Option(names = "--spin-as-wait", description = "book spin-waiting as imbalance instead of as spin time")
    boolean spinAsWait;

    @Option(names = "--private-range", paramLabel = "LO-HI", description = "a private address range (repeatable)")
    List<String> privateRanges = new ArrayList<>();

    @Option(names = "--shared-range", paramLabel = "LO-HI", description = "a shared address range (repeatable)")
    List<String> sharedRanges = new ArrayList<>();

    @CommandLine.Spec
    transient CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() {
        flags.replayOptions();
        CiatOptions co = ciatOptions();
        co.json = json == null ? null : Path.of(json);
        detailed = TraceInput.of(sets.get(sets.size() - 1), spark.read);
        calls = sets.size() == 2 ? TraceInput.of(sets.get(0), spark.read) : null;
        PrintWriter err = spec.commandLine().getErr();
        try (SparkRun run = new SparkRun("cluster ciat", spark.master, "dsmscope cluster ciat " + detailed.name(),
                spark.conf, err, spark.showProgress());
                Driver d = Driver.open(this, run, spark.partitions(run.defaultParallelism()))) {
            List<CiatPart> parts = new ArrayList<>();
            for (Serializable v : run.run(this, d.plan)) {
                parts.add((CiatPart) v);
            }
            List<Path> written = new ArrayList<>();
            CiatResult res = Partitioned.mergeAndWriteParts(parts, d.outputBase(), co, d.replay.problems(),
                    d.replay.problemCount(), written);
            summary(res, written);
            err.println("dsmscope: cluster ciat: " + run.mode());
            err.flush();
        }
        return 0;
    }

    @Override
    ReplayFlags flags() {
        return flags;
    }

    @Override
    Function<ReplayContext, Replay.Router> routing(int parts) {
        return CiatRouter.of(ciatOptions(), parts);
    }

    @Override
    Serializable run(int k, Replay.Plan plan, Inputs in, IntFunction<ReadableByteChannel> routed) {
        CiatOptions co = ciatOptions();
        co.writeFiles = false; // the driver writes the outputs; a partition's event spill goes to a temporary file
        Ciat ciat = new Ciat(co);
        boolean done = false;
        try {
            new Replay(in.detailed, in.calls, flags.replayOptions()).runPartition(plan, k, ciat, routed);
            done = true;
            return CiatPart.of(ciat);
        } finally {
            if (!done) {
                ciat.abandon();
            }
        }
    }

    /** The CIAT options these command-line options give (as {@code dsmscope ciat}'s), without the JSON file. */
    private CiatOptions ciatOptions() {
        CiatOptions o = new CiatOptions();
        o.events = events;
        switch (ageScope.toLowerCase(Locale.ROOT)) {
            case "thread": o.ageScope = AccessAge.Scope.THREAD; break;
            case "global": o.ageScope = AccessAge.Scope.GLOBAL; break;
            default: throw new ClusterError("option --age-scope: '" + ageScope + "' is not thread or global");
        }
        o.ageGranularity = granularity;
        o.sampleRate = sample;
        o.busy1 = busy1;
        o.spinAsWait = spinAsWait;
        AddressRanges r = new AddressRanges();
        if (flags.hpux) {
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
        o.validate();
        return o;
    }

    /** The summary lines of {@code dsmscope ciat}. */
    private void summary(CiatResult res, List<Path> written) {
        PrintWriter out = spec.commandLine().getOut();
        long loads = res.aggregate.mix.totalLoads(-1);
        long stores = res.aggregate.mix.totalStores(-1);
        CommStats c = res.aggregate.comm;
        out.printf(Locale.ROOT, "ciat: %d threads, %d phases, %d loads, %d stores; RAW %d WAR %d WAW %d RAR %d%n",
                res.threads, res.phases.size(), loads, stores, c.raw, c.war, c.waw, c.rar);
        for (Path p : written) {
            out.println("ciat: wrote " + p);
        }
        out.flush();
    }
}
