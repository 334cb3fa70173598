package org.dsmscope.cli;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import org.dsmscope.replay.ReplayOptions;
import org.dsmscope.trace.TraceSet;
import picocli.CommandLine;
import picocli.CommandLine.Option;

/**
 * The options of seed 000 Appendix B that CIAT and CDAT share (the trace lists, the replay's phases, scheduler, I/O
 * model and instruction stream), and the progress switch: a picocli mixin of {@code dsmscope ciat} and {@code
 * dsmscope cdat}.
 */
final class ReplayArgs {
    @Option(names = "-t", paramLabel = "trace_list", description = "file listing the detailed trace files")
    Path traceList;

    @Option(names = "-c", paramLabel = "call_list", description = "file listing the call trace files")
    Path callList;


    @Option(names = "-HPUX", description = {"HP-UX ranges: 0x40000000-0x7fffffff private, all others shared-range",
        "(CDAT: under RR1 the private range's pages are placed locally)"})
    boolean hpux;

    @Option(names = "-p", description = "spawn and join are invisible: start in a parallel phase")
    boolean parallelStart;

    @Option(names = "-i", paramLabel = "p", description = "interleave the traces on p processors")
    int interleave;

    @Option(names = "-a", description = "affinity: a process always runs on the same processor (with -i)")
    boolean affinity;

    @Option(names = "-rr_interleaving", description = "round-robin trace interleaving on the p processors (with -i)")
    boolean rr;

    @Option(names = "-k", description = "keep long slices scheduled until they finish (with -i)")
    boolean keep;

    @Option(names = "-s", paramLabel = "v", description = "slice length in instructions (default 20000)")
    long slice = 20_000;

    @Option(names = "-handle_io", description = "simulate the waits implied by disk reads and writes")
    boolean handleIo;

    @Option(names = "-buffered_io", description = "buffered disk I/O (default raw)")
    boolean bufferedIo;

    @Option(names = "-asynch_io", description = "a process does not wait for disk I/O completion")
    boolean asynchIo;

    @Option(names = "-distributed_io", description = "each processor does disk I/O through its local I/O processor")
    boolean distributedIo;

    @Option(names = "-dma_bw", paramLabel = "v", description = "disk DMA bandwidth, MB/s (default 20)")
    double dmaBw = 20;

    @Option(names = "-disk_latency", paramLabel = "v", description = "average disk latency, ms (default 10)")
    double diskLatency = 10;

    @Option(names = "-ipc", paramLabel = "v", description = "instructions per cycle (default 2)")
    double ipc = 2;

    @Option(names = "-mhz", paramLabel = "v", description = "processor clock in MHz for time conversion (default 120)")
    double mhz = 120;

    @Option(names = "--skip-bad-records", description = "continue past bad records, counting them")
    boolean skipBad;

    @Option(names = "--byte-order", paramLabel = "big|little",
            description = "byte order of headerless trace files (default: big-endian unless detected)")
    String byteOrder;


    @Option(names = "--seed-stream", description = {"rebuild the instruction stream as seed 000 §3 does even when",
        "the symbol sidecar NAME.p.symbols gives the memory-access offsets (default: exactly from them)"})
    boolean seedStream;

    @Option(names = "--progress", negatable = true,
            description = {"a progress line on standard error even when it is not a terminal (default: only on a",
                "terminal, after a second); --no-progress: never"})
    Boolean progress;


    @Option(names = {"-h", "--help"}, usageHelp = true, description = "print the command line options")
    boolean help;

    /** The replay options these command-line options give. */
    ReplayOptions replayOptions() {
        ReplayOptions o = new ReplayOptions();
        o.parallelStart = parallelStart;
        o.interleave = interleave;
        o.affinity = affinity;
        o.rrInterleaving = rr;
        o.keepLongSlices = keep;
        o.sliceLength = slice;
        o.handleIo = handleIo;
        o.bufferedIo = bufferedIo;
        o.asynchIo = asynchIo;
        o.distributedIo = distributedIo;
        o.dmaBandwidth = dmaBw;
        o.diskLatency = diskLatency;
        o.ipc = ipc;
        o.mhz = mhz;
        o.skipBadRecords = skipBad;
        o.exactStream = !seedStream;
        o.byteOrder = CliOptions.byteOrder(byteOrder, null);
        return o;
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
        warnUnused(spec, "-i", interleave > 0, "-s"); // -a, -rr_interleaving and -k without -i are refused
        warnUnused(spec, "-handle_io", handleIo, "-buffered_io", "-asynch_io", "-distributed_io", "-dma_bw",
                "-disk_latency");
    }

    private static void warnUnused(CommandLine.Model.CommandSpec spec, String needed, boolean given,
            String... options) {
        if (given) {
            return;
        }
        CommandLine.ParseResult pr = spec.commandLine().getParseResult();
        PrintWriter err = spec.commandLine().getErr();
        for (String name : options) {
            if (pr != null && pr.hasMatchedOption(name)) {
                err.println("dsmscope: warning: option " + name + " has no effect without " + needed);
            }
        }
        err.flush();
    }
}
