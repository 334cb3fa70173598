package org.dsmscope.options;

import java.io.PrintWriter;
import java.io.Serializable;
import org.dsmscope.replay.ReplayOptions;
import picocli.CommandLine;
import picocli.CommandLine.Option;

/**
 * The replay options of seed 000 Appendix B that CIAT and CDAT share (phases, scheduler of {@code -i p}, I/O model,
 * time conversion), as a picocli mixin of {@code dsmscope ciat|cdat} (through cli's {@code ReplayArgs}) and of
 * {@code dsmscope cluster ciat|cdat}. Serializable: every Spark task rebuilds its {@link ReplayOptions} from it.
 */
public final class ReplayFlags implements Serializable {
    private static final long serialVersionUID = 1L;

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

    /** {@code -HPUX}: HP-UX's private and shared ranges (CIAT's memory usage, CDAT's RR1 placement). */
    public boolean hpux() {
        return hpux;
    }

    /**
     * The replay options these flags and {@code read} (how the trace files are read) give, not yet checked ({@link
     * ReplayOptions#validate} names the option out of range).
     */
    public ReplayOptions replayOptions(ReadFlags read) {
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
        read.applyTo(o);
        return o;
    }

    /**
     * Warns on {@code spec}'s standard error (the analysis goes on) about options given on its command line that
     * change nothing: the slice length without {@code -i}, the I/O model's options without {@code -handle_io}.
     */
    public void warnUnused(CommandLine.Model.CommandSpec spec) {
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
