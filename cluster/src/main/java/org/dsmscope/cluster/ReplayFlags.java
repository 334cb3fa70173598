package org.dsmscope.cluster;

import java.nio.ByteOrder;
import java.util.Locale;
import org.dsmscope.replay.ReplayOptions;
import picocli.CommandLine.Option;

/**
 * The replay options of seed 000 Appendix B that {@code dsmscope ciat} and {@code cdat} take (cli's {@code
 * ReplayArgs}), as a picocli mixin of the cluster commands. A copy of that list rather than cli's class: cli's
 * options are package-private there, and this one must be serializable, because every Spark task rebuilds its
 * {@link ReplayOptions} from it. {@code --skip-bad-records} is left out: a cluster run stops at the first bad
 * record (cluster/README.md "Errors").
 */
final class ReplayFlags implements java.io.Serializable {
    private static final long serialVersionUID = 1L;

    @Option(names = "-HPUX", description = "HP-UX ranges: 0x40000000-0x7fffffff private, all others shared-range")
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

    @Option(names = "--byte-order", paramLabel = "big|little",
            description = "byte order of headerless trace files (default: big-endian unless detected)")
    String byteOrder;

    @Option(names = "--seed-stream", description = "rebuild the instruction stream as seed 000 §3 does")
    boolean seedStream;

    /** The replay options these command-line options give, checked. */
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
        o.exactStream = !seedStream;
        o.byteOrder = byteOrder(byteOrder);
        o.validate();
        return o;
    }

    private static ByteOrder byteOrder(String s) {
        if (s == null) {
            return null;
        }
        switch (s.toLowerCase(Locale.ROOT)) {
            case "big": case "big-endian": return ByteOrder.BIG_ENDIAN;
            case "little": case "little-endian": return ByteOrder.LITTLE_ENDIAN;
            default: throw new ClusterError("unknown byte order '" + s + "' (expected big or little)");
        }
    }
}
