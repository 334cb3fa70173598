package org.dsmscope.cluster;

import java.io.PrintWriter;
import java.io.Serializable;
import java.nio.channels.ReadableByteChannel;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.function.Function;
import java.util.function.IntFunction;
import org.dsmscope.ciat.Ciat;
import org.dsmscope.ciat.CiatOptions;
import org.dsmscope.ciat.CiatPart;
import org.dsmscope.ciat.CiatResult;
import org.dsmscope.ciat.CiatRouter;
import org.dsmscope.ciat.Partitioned;
import org.dsmscope.options.CiatFlags;
import org.dsmscope.options.Summary;
import org.dsmscope.replay.Replay;
import org.dsmscope.replay.ReplayContext;
import org.dsmscope.replay.ReplayOptions;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/**
 * {@code dsmscope cluster ciat}: CIAT (seed 000 §4, SPEC §5) in partitions on a Spark cluster (SPEC §4
 * "Partitioning", ciat/README.md "Parallel analysis"): the prescan and plan on the driver, partition k of N in
 * Spark task k ({@link CiatPart} back), {@link Partitioned#mergeAndWriteParts} on the driver. The report, memory
 * usage file, event trace and JSON are those of {@code dsmscope ciat} on the same traces and options, which are
 * {@code dsmscope ciat}'s own (options module).
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
    transient SparkFlags spark = new SparkFlags();

    /** CIAT's options, {@code dsmscope ciat}'s (options module). */
    @CommandLine.Mixin
    CiatFlags ciat = new CiatFlags();

    @CommandLine.Spec
    transient CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() {
        ReplayOptions ro = flags.replayOptions(read);
        CiatOptions co = ciat.ciatOptions(flags.hpux()); // as dsmscope ciat: both made, then both checked
        ro.validate();
        co.validate();
        spark.partitions(1); // --partitions checked before Spark starts
        detailed = TraceInput.of(sets.get(sets.size() - 1), spark.read);
        calls = sets.size() == 2 ? TraceInput.of(sets.get(0), spark.read) : null;
        flags.warnUnused(spec);
        PrintWriter err = spec.commandLine().getErr();
        Driver.Ahead ahead = Driver.ahead(this, spark.knownPartitions());
        try (SparkRun run = new SparkRun("cluster ciat", spark.master, "dsmscope cluster ciat " + detailed.name(),
                spark.conf, err, spark.showProgress());
                Driver d = Driver.open(this, run, spark.partitions(run.defaultParallelism()), ahead)) {
            List<CiatPart> parts = new ArrayList<>();
            for (Serializable v : run.run(this, d.plan)) {
                parts.add((CiatPart) v);
            }
            List<Path> written = new ArrayList<>();
            RunProblems p = d.problems(run);
            CiatResult res = Partitioned.mergeAndWriteParts(parts, d.outputBase(), co, p.list(), p.count(),
                    written);
            Summary.ciat(spec.commandLine().getOut(), res, written);
            Summary.ciatProblems(spec.commandLine().getOut(), err, p.list(), p.count(), written);
            err.println("dsmscope: cluster ciat: " + run.mode());
            err.flush();
        } finally {
            if (ahead != null) {
                ahead.discard();
            }
        }
        return 0;
    }

    @Override
    Function<ReplayContext, Replay.Router> routing(int parts) {
        return CiatRouter.of(ciatOptions(), parts);
    }

    @Override
    Serializable run(int k, Replay.Plan plan, Replay replay, IntFunction<ReadableByteChannel> routed) {
        CiatOptions co = ciatOptions();
        co.writeFiles = false; // the driver writes the outputs; a partition's event spill goes to a temporary file
        Ciat ciat = new Ciat(co);
        boolean done = false;
        try {
            replay.runPartition(plan, k, ciat, routed);
            done = true;
            return CiatPart.of(ciat);
        } finally {
            if (!done) {
                ciat.abandon();
            }
        }
    }

    /** The CIAT options of the command line, checked (the JSON file only on the driver). */
    private CiatOptions ciatOptions() {
        CiatOptions o = ciat.ciatOptions(flags.hpux());
        o.validate();
        return o;
    }
}
