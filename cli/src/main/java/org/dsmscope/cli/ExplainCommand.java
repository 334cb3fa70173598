package org.dsmscope.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import org.dsmscope.explain.CostModel;
import org.dsmscope.explain.ExplainRun;
import org.dsmscope.replay.ReplayOptions;
import org.dsmscope.trace.OutputFile;
import org.dsmscope.trace.TraceSet;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code dsmscope explain}: why communication happens (seed 003, SPEC §8). Replays a trace set through a page-based
 * software DSM with lazy release consistency (or, with {@code --granularity line}, hardware coherence), writes the
 * fault trace {@code trace_file.p.faults}, and explains it into {@code trace_file.p.explain_report}; {@code
 * --faults FILE} explains a fault trace made elsewhere.
 */
@Command(name = "explain", sortOptions = false, separator = " ",
        description = {"Communication analysis: why each remote request happens, by page (software DSM with lazy",
            "release consistency) or by cache line (false sharing), in source terms (seed 003). Forms:",
            "  explain [options] [calls_file.p] trace_file.p",
            "  explain [options] --faults FAULT_TRACE"})
public final class ExplainCommand implements Callable<Integer> {
    private static final String USAGE = "explain [options] [calls_file.p] trace_file.p, or explain --faults FILE";

    @Parameters(arity = "0..2", paramLabel = "ARGS", description = "[calls_file.p] trace_file.p")
    List<String> args = new ArrayList<>();

    @CommandLine.Mixin
    ReplayArgs r = new ReplayArgs();

    @Option(names = "--faults", paramLabel = "FILE",
            description = "explain this fault trace (format dsmscope-faults 2 or 1) instead of replaying a trace set")
    Path faults;

    @Option(names = "--granularity", paramLabel = "page|line",
            description = "page: software DSM (default); line: hardware coherence and false sharing")
    String granularity = "page";

    @Option(names = "--page-size", paramLabel = "BYTES", description = "page size, a power of two (default 4096)")
    int pageSize = 4096;

    @Option(names = "--line-size", paramLabel = "BYTES", description = "cache line size, a power of two (default 64)")
    int lineSize = 64;

    @Option(names = "--latency", paramLabel = "US", description = "one-way message latency, µs (page 50, line 0.1)")
    Double latency;

    @Option(names = "--transfer", paramLabel = "US", description = "page or line transfer, µs (page 40, line 0.01)")
    Double transfer;

    @Option(names = "--diff-create", paramLabel = "US", description = "twin's diff creation / line upgrade, µs (10, 0.1)")
    Double diffCreate;

    @Option(names = "--diff-apply", paramLabel = "US", description = "diff application / line move, µs (5, 0.05)")
    Double diffApply;

    @Option(names = "--tolerance", paramLabel = "T",
            description = "similarity tolerance for merging explanations: cost shares within T (default 0.10)")
    double tolerance = 0.10;

    @Option(names = {"-o", "--report"}, paramLabel = "FILE",
            description = "the text report (default: trace_file.p.explain_report, or FAULT_TRACE.explain_report)")
    Path report;

    @Option(names = "--fault-trace", paramLabel = "FILE",
            description = "where the replay writes the fault trace (default: trace_file.p.faults or .line_faults)")
    Path faultTrace;

    @Option(names = "--partitions", paramLabel = "N",
            description = {"replay in N partitions on N threads, each keeping the pages (lines) dealt to it and the",
                "whole synchronization skeleton (0 = one per core; default 1 = serial); results identical"})
    int partitions = 1;

    @Option(names = "--json", paramLabel = "FILE", description = "also write the results as JSON")
    Path json;

    @Option(names = "--graph", paramLabel = "UNIT",
            description = "print the communication graph of this page (line) number as Graphviz DOT on standard output")
    String graph;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws IOException {
        ExplainRun.Options o = options();
        Long unit = graph == null ? null : unit(graph);
        ExplainRun.Result res;
        Path out;
        if (faults != null) {
            if (!args.isEmpty() || r.traceList != null) {
                throw new UserError("explain: give either --faults FILE or a trace set, not both");
            }
            if (!Files.isRegularFile(faults)) {
                throw new UserError(faults + ": no such fault trace");
            }
            out = report != null ? report : Path.of(faults + ".explain_report");
            RunFiles.check(List.of(faults), json == null ? List.of(out) : List.of(out, json));
            res = ExplainRun.faults(faults, o);
        } else {
            if (args.size() > 2) {
                throw new UserError("explain: too many trace sets: " + args + "; usage: " + USAGE);
            }
            ReplayOptions ro = r.replayOptions();
            ro.validate();
            TraceSet[] ts = r.traceSets("explain", args, USAGE);
            String base = ts[0].base();
            out = report != null ? report : Path.of(base + ".explain_report");
            o.faultsOut = faultTrace != null ? faultTrace : Path.of(base + (o.lines ? ".line_faults" : ".faults"));
            List<Path> outs = new ArrayList<>(List.of(out, o.faultsOut));
            if (json != null) {
                outs.add(json);
            }
            RunFiles.check(RunFiles.traceInputs(ts), outs);
            r.warnUnused(spec);
            res = ExplainRun.replay(ts[0], ts[1], ro, o);
        }
        ExplainRun.Result done = res;
        OutputFile.write(out, p -> {
            try (PrintWriter w = new PrintWriter(Files.newBufferedWriter(p, StandardCharsets.UTF_8))) {
                done.report().text(w);
            }
        });
        if (json != null) {
            OutputFile.write(json, res.report()::writeJson);
        }
        PrintWriter stdout = spec.commandLine().getOut();
        if (unit != null) {
            res.report().dot(unit, stdout);
            return 0;
        }
        PrintWriter err = spec.commandLine().getErr();
        for (String note : res.sources().notes()) {
            err.println("explain: note: " + note);
        }
        err.flush();
        stdout.printf(java.util.Locale.ROOT, "explain: %d faults, total cost %.1f us%n",
                res.explainer().trace().faults(), res.profiles().total);
        if (o.faultsOut != null) {
            stdout.println("explain: wrote " + o.faultsOut);
        }
        stdout.println("explain: wrote " + out);
        if (json != null) {
            stdout.println("explain: wrote " + json);
        }
        stdout.flush();
        return 0;
    }

    private ExplainRun.Options options() {
        ExplainRun.Options o = new ExplainRun.Options();
        if (!granularity.equals("page") && !granularity.equals("line")) {
            throw new UserError("option --granularity: page or line, was '" + granularity + "'");
        }
        o.lines = granularity.equals("line");
        o.unitSize = o.lines ? lineSize : pageSize;
        String name = o.lines ? "--line-size" : "--page-size";
        if (Integer.bitCount(o.unitSize) != 1 || o.unitSize < 4) {
            throw new UserError("option " + name + ": a power of two of at least 4 bytes, was " + o.unitSize);
        }
        CostModel d = o.lines ? CostModel.lines() : CostModel.pages();
        o.cost = new CostModel(latency != null ? latency : d.latency(), transfer != null ? transfer : d.transfer(),
                diffCreate != null ? diffCreate : d.diffCreate(), diffApply != null ? diffApply : d.diffApply());
        String bad = o.cost.problem();
        if (bad != null) {
            throw new UserError(bad);
        }
        if (!(tolerance >= 0 && tolerance <= 1)) {
            throw new UserError("option --tolerance: a share from 0 to 1, was " + tolerance);
        }
        o.tolerance = tolerance;
        o.partitions = CiatCommand.partitionCount(partitions);
        return o;
    }

    private static long unit(String s) {
        try {
            return s.startsWith("0x") ? Long.parseUnsignedLong(s.substring(2), 16) : Long.parseLong(s);
        } catch (NumberFormatException e) {
            throw new UserError("option --graph: a page (line) number, decimal or 0x hex, was '" + s + "'");
        }
    }
}
