package org.dsmscope.cli;

import java.nio.file.Path;
import java.util.List;
import org.dsmscope.options.ReadFlags;
import org.dsmscope.options.ReplayFlags;
import org.dsmscope.replay.ReplayOptions;
import org.dsmscope.trace.TraceSet;
import picocli.CommandLine;
import picocli.CommandLine.Option;

/**
 * The options of seed 000 Appendix B that CIAT and CDAT share (the trace lists, the replay's phases, scheduler, I/O
 * model and instruction stream), and the progress switch: a picocli mixin of {@code dsmscope ciat} and {@code
 * dsmscope cdat}. The replay model ({@link ReplayFlags}) and how traces are read ({@link ReadFlags}) are the options
 * module's, which {@code dsmscope cluster ciat|cdat} mixes in too.
 */
final class ReplayArgs {
    @Option(names = "-t", paramLabel = "trace_list", description = "file listing the detailed trace files")
    Path traceList;

    @Option(names = "-c", paramLabel = "call_list", description = "file listing the call trace files")
    Path callList;

    /** The replay model's options, shared with {@code dsmscope cluster} (options module). */
    @CommandLine.Mixin
    ReplayFlags replay = new ReplayFlags();

    /** How the trace files are read (bad records too), shared with {@code dsmscope cluster} (options module). */
    @CommandLine.Mixin
    ReadFlags read = new ReadFlags();

    @Option(names = "--progress", negatable = true,
            description = {"a progress line on standard error even when it is not a terminal (default: only on a",
                "terminal, after a second); --no-progress: never"})
    Boolean progress;

    @Option(names = {"-h", "--help"}, usageHelp = true, description = "print the command line options")
    boolean help;

    /** The replay options these command-line options give. */
    ReplayOptions replayOptions() {
        return replay.replayOptions(read);
    }

    /**
     * The detailed and call trace sets named by {@code -t} / {@code -c} or by the positional {@code
     * [calls_file.p] trace_file.p} ({@code sets}); {@code [1]} is null without call traces.
     */
    TraceSet[] traceSets(String tool, List<String> sets, String usage) {
        TraceSet detailed;
        TraceSet calls = null;
        if (traceList != null) {
            if (!sets.isEmpty()) {
                throw new UserError(tool + ": give either -t trace_list or trace_file.p, not both");
            }
            detailed = TraceSet.ofList(traceList);
            if (callList != null) {
                calls = TraceSet.ofList(callList);
            }
        } else {
            if (sets.isEmpty()) {
                throw new UserError(tool + ": no traces given; usage: " + usage);
            }
            if (sets.size() > 2) {
                throw new UserError(tool + ": too many trace sets " + sets + " (at most calls_file.p and"
                        + " trace_file.p); usage: " + usage);
            }
            if (callList != null) {
                throw new UserError(tool + ": -c call_list goes with -t trace_list");
            }
            detailed = TraceSet.ofPrefix(sets.get(sets.size() - 1));
            if (sets.size() == 2) {
                calls = TraceSet.ofPrefix(sets.get(0));
            }
        }
        return new TraceSet[] {detailed, calls};
    }

    /**
     * Warns (standard error, the analysis goes on) about options given on the command line that change nothing:
     * the slice length without {@code -i}, the I/O model's options without {@code -handle_io}.
     */
    void warnUnused(CommandLine.Model.CommandSpec spec) {
        replay.warnUnused(spec);
    }
}
