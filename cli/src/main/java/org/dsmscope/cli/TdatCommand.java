package org.dsmscope.cli;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import org.dsmscope.tdat.Selection;
import org.dsmscope.tdat.Tdat;
import org.dsmscope.tdat.TdatJson;
import org.dsmscope.tdat.TdatOptions;
import org.dsmscope.tdat.TdatResult;
import org.dsmscope.tdat.TextReport;
import org.dsmscope.tdat.TimeFile;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code dsmscope tdat}: the time distribution analysis (seed 000 §6, seed 001 §5.5, SPEC §7). Reads event traces
 * (CIAT's, CDAT's general and detailed), writes the events per bin to {@code event.time} and the rate figures to
 * standard output (the seed's {@code > event.freq}); formats in tdat/README.md.
 */
@Command(name = "tdat", sortOptions = false, separator = " ",
        description = {"Time distribution analysis (seed 000 §6, seed 001 §5.5): events per bin of BIN",
            "clocks to event.time, the distribution of the rate events / (BIN x p) to",
            "standard output. Form:",
            "  tdat [options] event_trace [event_trace ...] event.time BIN p",
            "Inputs, detected per file: CIAT event traces (ciat -ciat_events), CDAT",
            "general traces (NAME.p.cdat_general.K), CDAT detailed traces",
            "(NAME.p.cdat_detailed)."})
public final class TdatCommand implements Callable<Integer> {
    private static final String USAGE = "tdat [options] event_trace [event_trace ...] event.time BIN p";

    @Parameters(paramLabel = "ARGS", description = "event_trace [event_trace ...] event.time BIN p: the inputs, the"
            + " bins file to write, the bin width in clocks (instructions) and the number of processors")
    List<String> args = new ArrayList<>();

    @Option(names = "--rate-bins", paramLabel = "N", defaultValue = "50",
            description = "classes of the rate density function, 1..10000 (default 50)")
    int rateBins;

    @Option(names = "--types", paramLabel = "LIST",
            description = "count only these event types, comma-separated: RAW, WAR, WAW, RAR for CIAT event traces;"
                    + " Appendix C codes or names (2,read_priv_own,91) for CDAT traces (default: every CIAT event,"
                    + " every CDAT transaction, no status record 91 / 92)")
    String types;

    @Option(names = "--processors", paramLabel = "LIST",
            description = "CIAT event traces only: count only events of these processors (0,2-3)")
    String processors;

    @Option(names = "--nodes", paramLabel = "LIST",
            description = "CDAT traces only: count only records whose processor side is in these nodes (0,2-3)")
    String nodes;

    @Option(names = "--json", paramLabel = "FILE", description = "also write the figures as JSON")
    Path json;

    @Option(names = {"-h", "--help"}, usageHelp = true, description = "print the command line options")
    boolean help;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() {
        if (args.size() < 4) {
            throw new UserError("tdat: expected event_trace(s), event.time, BIN and p, got " + args.size()
                    + " argument(s); usage: " + USAGE);
        }
        int n = args.size();
        TdatOptions o = new TdatOptions();
        o.binWidth = TdatOptions.positive("BIN", args.get(n - 2), Long.MAX_VALUE);
        o.processors = (int) TdatOptions.positive("p", args.get(n - 1), Integer.MAX_VALUE);
        o.rateBins = rateBins;
        o.selection = Selection.parse(types, processors, nodes);
        o.validate();
        Path time = Path.of(args.get(n - 3));
        List<Path> inputs = new ArrayList<>();
        for (String a : args.subList(0, n - 3)) {
            inputs.add(Path.of(a));
        }
        List<Path> outs = new ArrayList<>(List.of(time));
        if (json != null) {
            outs.add(json);
        }
        RunFiles.check(inputs, outs);
        Tdat tdat = new Tdat(o);
        for (Path in : inputs) {
            tdat.read(in);
        }
        TdatResult res = tdat.result();
        TimeFile.write(time, tdat.bins(), o.processors);
        if (json != null) {
            TdatJson.write(res, json);
        }
        PrintWriter out = spec.commandLine().getOut();
        TextReport.write(out, res);
        out.flush();
        return 0;
    }

}
