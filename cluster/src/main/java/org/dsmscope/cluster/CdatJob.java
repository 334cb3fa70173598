package org.dsmscope.cluster;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.Serializable;
import java.nio.channels.ReadableByteChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.function.Function;
import java.util.function.IntFunction;
import org.dsmscope.cdat.Cdat;
import org.dsmscope.cdat.CdatOptions;
import org.dsmscope.cdat.CdatPart;
import org.dsmscope.cdat.CdatRouter;
import org.dsmscope.cdat.PartitionedCdat;
import org.dsmscope.cdat.config.CdatConfig;
import org.dsmscope.options.CdatFlags;
import org.dsmscope.options.Summary;
import org.dsmscope.replay.Replay;
import org.dsmscope.replay.ReplayContext;
import org.dsmscope.trace.BadInputException;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/**
 * {@code dsmscope cluster cdat}: CDAT (seed 000 §5, SPEC §6) in partitions by cache set on a Spark cluster (SPEC §4
 * "Partitioning", cdat/README.md "Partitions"): the prescan and plan on the driver, records shuffled to the
 * partitions by cache set ({@link CdatRouter}, cluster/README.md "What is shuffled"), partition k of N of every
 * configuration in Spark task k ({@link CdatPart}s back), {@link Cdat#mergeParts} on the driver. Report and JSON are
 * those of {@code dsmscope cdat}, and so are the options (options module); configurations that ask for traffic
 * traces are refused (not merged here).
 */
@Command(name = "cdat", sortOptions = false, separator = " ",
        description = {"CDAT on a Spark cluster; outputs identical to dsmscope cdat's. Forms:",
            "  cdat [--master URL] [options] [CALLS_URI] TRACE_URI cfg_file",
            "  cdat [--master URL] [options] [CALLS_URI] TRACE_URI --config cfg_file --config cfg_file ..."})
final class CdatJob extends PartitionJob implements Callable<Integer> {
    private static final long serialVersionUID = 1L;
    private static final String USAGE = "cdat [CALLS_URI] TRACE_URI cfg_file";

    @Parameters(arity = "1..3", paramLabel = "ARGS", description = "[CALLS_URI] TRACE_URI cfg_file")
    List<String> args = new ArrayList<>();

    @CommandLine.Mixin
    transient SparkFlags spark = new SparkFlags();

    /** CDAT's options, {@code dsmscope cdat}'s (options module). */
    @CommandLine.Mixin
    CdatFlags cdat = new CdatFlags();

    @CommandLine.Spec
    transient CommandLine.Model.CommandSpec spec;

    /** The configurations' names and texts, parsed again by every task. */
    private final List<String> cfgNames = new ArrayList<>();
    private final List<String> cfgTexts = new ArrayList<>();

    @Override
    public Integer call() {
        List<String> sets = new ArrayList<>(args);
        List<CdatConfig> cfgs = configurations(sets);
        if (sets.isEmpty() || sets.size() > 2) {
            throw new ClusterError("cluster cdat: give [CALLS_URI] TRACE_URI and a configuration; got " + args);
        }
        replayOptions();
        spark.partitions(1); // --partitions checked before Spark starts
        detailed = TraceInput.of(sets.get(sets.size() - 1), spark.read);
        calls = sets.size() == 2 ? TraceInput.of(sets.get(0), spark.read) : null;
        flags.warnUnused(spec);
        PrintWriter err = spec.commandLine().getErr();
        int useful = PartitionedCdat.usefulPartitions(cfgs);
        Driver.Ahead ahead = Driver.ahead(this, Math.min(spark.knownPartitions(), useful));
        try (SparkRun run = new SparkRun("cluster cdat", spark.master, "dsmscope cluster cdat " + detailed.name(),
                spark.conf, err, spark.showProgress())) {
            int parts = spark.partitions(run.defaultParallelism());
            if (parts > useful) {
                err.println("dsmscope: warning: cluster cdat: --partitions " + parts + ": the smallest cache has "
                        + useful + " set" + (useful == 1 ? "" : "s") + ", so " + useful + " partition"
                        + (useful == 1 ? "" : "s") + " (cdat/README.md \"Partitions\")");
                err.flush();
                parts = useful;
            }
            try (Driver d = Driver.open(this, run, parts, ahead)) {
                List<Serializable> got = run.run(this, d.plan);
                RunProblems problems = d.problems(run);
                PrintWriter out = spec.commandLine().getOut();
                for (int i = 0; i < cfgs.size(); i++) {
                    List<CdatPart> mine = new ArrayList<>();
                    for (Serializable v : got) {
                        mine.add(((CdatPart[]) v)[i]);
                    }
                    CdatOptions o = cdat.cdatOptions(cfgs.get(i), cfgs.size(), flags.hpux());
                    Cdat sim = Cdat.mergeParts(cfgs.get(i), o, mine, problems.context(d.replay), d.outputBase());
                    Summary.cdat(out, sim.result());
                    for (Path p : sim.written()) {
                        out.println("cdat: wrote " + p);
                    }
                }
                Summary.cdatProblems(out, problems.count());
                out.flush();
                err.println("dsmscope: cluster cdat: " + run.mode());
                err.flush();
            }
        } finally {
            if (ahead != null) {
                ahead.discard();
            }
        }
        return 0;
    }

    /** The lines of every configuration's cache sets, as {@code dsmscope cdat --partitions} routes them. */
    @Override
    Function<ReplayContext, Replay.Router> routing(int parts) {
        List<CdatConfig> cfgs = new ArrayList<>();
        for (int i = 0; i < cfgNames.size(); i++) {
            cfgs.add(CdatConfig.parse(cfgNames.get(i), cfgTexts.get(i)));
        }
        return CdatRouter.of(cfgs, flags.hpux(), parts);
    }

    @Override
    Serializable run(int k, Replay.Plan plan, Replay replay, IntFunction<ReadableByteChannel> routed) {
        List<Cdat> sims = new ArrayList<>();
        for (int i = 0; i < cfgNames.size(); i++) {
            CdatConfig c = CdatConfig.parse(cfgNames.get(i), cfgTexts.get(i));
            CdatOptions o = cdat.cdatOptions(c, cfgNames.size(), flags.hpux());
            o.writeFiles = false; // the driver writes the report and JSON
            sims.add(new Cdat(c, o));
        }
        boolean done = false;
        try {
            replay.runPartition(plan, k, PartitionedCdat.fanout(sims), routed);
            CdatPart[] parts = new CdatPart[sims.size()];
            for (int i = 0; i < parts.length; i++) {
                parts[i] = sims.get(i).part();
            }
            done = true;
            return parts;
        } finally {
            if (!done) {
                sims.forEach(Cdat::abandon);
            }
        }
    }

    /**
     * The configurations, parsed and checked as {@code dsmscope cdat} checks them ({@code --config}, else the last
     * positional argument, removed from {@code sets}), none with traffic traces; their texts kept for the tasks.
     */
    private List<CdatConfig> configurations(List<String> sets) {
        List<Path> files = cdat.configFiles(sets, 2, "cluster cdat", USAGE);
        List<CdatConfig> cfgs = cdat.configurations(files, "cluster cdat");
        for (int i = 0; i < cfgs.size(); i++) {
            CdatConfig c = cfgs.get(i);
            Path f = files.get(i);
            if (c.detailedTrace || c.generalTrace) {
                throw new ClusterError(f + ": asks for traffic traces (general_trace / detailed_trace), which cluster"
                        + " cdat does not write: set them to 0, or run dsmscope cdat --partitions N");
            }
            try {
                cfgTexts.add(Files.readString(f, StandardCharsets.UTF_8));
            } catch (IOException e) {
                throw new BadInputException(f + ": cannot read CDAT configuration file: " + e.getMessage());
            }
            cfgNames.add(c.name);
        }
        return cfgs;
    }
}
