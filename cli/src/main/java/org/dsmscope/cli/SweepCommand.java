package org.dsmscope.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import org.dsmscope.cdat.Cdat;
import org.dsmscope.cdat.CdatOptions;
import org.dsmscope.cdat.CdatResult;
import org.dsmscope.cdat.Counters;
import org.dsmscope.cdat.config.CdatConfig;
import org.dsmscope.cdat.config.Sweep;
import org.dsmscope.cdat.report.CdatJson;
import org.dsmscope.replay.Replay;
import org.dsmscope.replay.ReplayOptions;
import org.dsmscope.trace.OutputFile;
import org.dsmscope.trace.TraceSet;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code dsmscope sweep} (SPEC §10): CDAT on every combination of the varied configuration items, all fed by one
 * replay of the traces, and a table that compares them: for an architect choosing cache size, line size, protocol
 * variant and page placement from a trace. Each configuration also writes its report
 * ({@code trace_file.p.sNN.cdat_report}).
 */
@Command(name = "sweep", sortOptions = false, separator = " ",
        description = {"CDAT on every combination of varied configuration items, in one replay, compared.",
            "  sweep [options] [calls_file.p] trace_file.p base_cfg --vary ITEM=V1,V2 [--vary ITEM=...]",
            "Example: sweep mm.4 examples/cdat/dsm4.cfg --vary protocol=1,3,5 --vary \"data_cache=8K 4 lru,32K 4 lru\""})
public final class SweepCommand implements Callable<Integer> {
    /** Format of the table on standard output and of the JSON. */
    public static final String FORMAT = "dsmscope-sweep 1";
    private static final String USAGE = "sweep [calls_file.p] trace_file.p base_cfg --vary ITEM=V1,V2";

    @Parameters(arity = "0..3", paramLabel = "ARGS",
            description = "[calls_file.p] trace_file.p base_cfg (or -t trace_list base_cfg)")
    List<String> args = new ArrayList<>();

    @CommandLine.Mixin
    ReplayArgs r = new ReplayArgs();

    @Option(names = "--vary", paramLabel = "ITEM=V1,V2", required = true,
            description = "a configuration item and its values, comma-separated (repeatable: every combination)")
    List<String> vary = new ArrayList<>();

    @Option(names = "--memory", paramLabel = "FILE",
            description = "memory usage file for RR2 and Oracle (default: trace_file.p.memory)")
    Path memory;

    @Option(names = "--json", paramLabel = "FILE", description = "also write the comparison as JSON")
    Path json;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() {
        List<String> sets = new ArrayList<>(args);
        if (sets.isEmpty() || sets.size() == 1 && r.traceList == null) {
            throw new UserError("sweep: no base configuration given; usage: " + USAGE);
        }
        Path baseFile = Path.of(sets.remove(sets.size() - 1));
        CdatConfig base = CdatConfig.parse(baseFile);
        List<Sweep.Point> points = Sweep.expand(base, vary);
        ReplayOptions ro = r.replayOptions();
        ro.validate();
        TraceSet[] ts = r.traceSets("sweep", sets, USAGE);
        List<Path> outs = new ArrayList<>();
        for (Sweep.Point p : points) {
            outs.add(Cdat.output(ts[0].base(), p.config().name, "cdat_report"));
        }
        if (json != null) {
            outs.add(json);
        }
        List<Path> ins = RunFiles.traceInputs(ts);
        ins.add(baseFile);
        ins.add(memory != null ? memory : Path.of(ts[0].base() + ".memory"));
        RunFiles.check(ins, outs);
        r.warnUnused(spec);
        Replay replay = new Replay(ts[0], ts[1], ro);
        List<Cdat> sims = new ArrayList<>();
        for (Sweep.Point p : points) {
            CdatOptions o = new CdatOptions();
            o.memoryFile = memory;
            o.hpux = r.replay.hpux();
            o.suffix = p.config().name;
            Cdat sim = new Cdat(p.config(), o);
            sims.add(sim);
            replay.add(sim);
        }
        Progress shown = Progress.start(Progress.Mode.of(r.progress), "sweep", "replayed",
                spec.commandLine().getErr(), replay::progress, replay::expectedRecords);
        try {
            CdatCommand.run(replay, sims);
        } finally {
            Progress.close(shown);
        }
        RunFiles.warnUnverified(spec.commandLine().getErr(), replay.unverified());
        PrintWriter out = spec.commandLine().getOut();
        out.print(table(points, sims));
        if (json != null) {
            ObjectNode root = json(points, sims);
            OutputFile.write(json, tmp -> new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT)
                    .writeValue(tmp.toFile(), root));
            out.println("sweep: wrote " + json);
        }
        out.println("sweep: reports " + Cdat.output(ts[0].base(), "sNN", "cdat_report") + " (NN = 01.."
                + String.format("%02d", points.size()) + ")");
        out.flush();
        return 0;
    }

    private static double pct(long n, long of) {
        return of == 0 ? 0 : 100.0 * n / of;
    }

    /**
     * The comparison, format {@value #FORMAT}: a header line, a line naming the columns, then one line per
     * configuration: its name, the values of the varied items, then data hits (% of data accesses), data misses
     * satisfied locally and remotely and from a remote cache (% of misses), transactions, processor requests and
     * the average latency.
     */
    static String table(List<Sweep.Point> points, List<Cdat> sims) {
        StringBuilder b = new StringBuilder("# " + FORMAT + "\n");
        List<String> items = new ArrayList<>(points.get(0).values().keySet());
        b.append("config");
        for (String i : items) {
            b.append('\t').append(i);
        }
        b.append("\tdata_hits%\tmisses_local%\tmisses_remote%\tremote_cache%\ttransactions\trequests"
                + "\taverage_latency\n");
        for (int k = 0; k < points.size(); k++) {
            CdatResult res = sims.get(k).result();
            long[] d = res.aggregate.streams[Counters.DATA];
            long acc = d[Counters.HIT] + d[Counters.MISS];
            b.append(points.get(k).config().name);
            for (String i : items) {
                b.append('\t').append(points.get(k).values().get(i));
            }
            b.append(String.format(Locale.ROOT, "\t%.2f\t%.2f\t%.2f\t%.2f\t%d\t%d\t%.4f%n",
                    pct(d[Counters.HIT], acc), pct(d[Counters.MISS_LOCAL], d[Counters.MISS]),
                    pct(d[Counters.MISS_REMOTE], d[Counters.MISS]), pct(d[Counters.REMOTE_CACHE], d[Counters.MISS]),
                    res.aggregate.totalTransactions(), res.aggregate.requests, res.aggregate.averageLatency()));
        }
        return b.toString();
    }

    /** The comparison as JSON: {@code format}, and per configuration its name, varied values and CDAT results. */
    static ObjectNode json(List<Sweep.Point> points, List<Cdat> sims) {
        ObjectNode root = new ObjectMapper().createObjectNode();
        root.put("format", FORMAT);
        ArrayNode list = root.putArray("configurations");
        for (int k = 0; k < points.size(); k++) {
            ObjectNode c = list.addObject();
            c.put("name", points.get(k).config().name);
            ObjectNode v = c.putObject("varied");
            points.get(k).values().forEach(v::put);
            c.set("results", CdatJson.tree(sims.get(k).result()));
        }
        return root;
    }
}
