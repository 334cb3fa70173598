package org.dsmscope.replay;

/**
 * The replay options of seed 000 Appendix B (shared by CIAT and CDAT) and SPEC §4's time conversion. Defaults are
 * the seed's. Plain mutable fields, validated by {@link #validate()}.
 */
public final class ReplayOptions {
    /** {@code -p}: spawn and join are invisible; start in a parallel phase. */
    public boolean parallelStart;
    /** {@code -i p}: interleave the traces on p processors (0 = off: one thread per trace). */
    public int interleave;
    /** {@code -a}: a process always runs on the same processor. */
    public boolean affinity;
    /** {@code -rr_interleaving}: trace i on processor i mod p, alternating one slice at a time. */
    public boolean rrInterleaving;
    /** {@code -k}: keep long slices scheduled until they finish. */
    public boolean keepLongSlices;
    /** {@code -s v}: slice length in instructions after which a long slice is scheduled off. */
    public long sliceLength = 20_000;
    /** {@code -handle_io}: simulate the traffic and waits implied by disk reads and writes. */
    public boolean handleIo;
    /** {@code -buffered_io}: buffered instead of raw disk I/O. */
    public boolean bufferedIo;
    /** {@code -asynch_io}: a process does not wait for disk I/O completion. */
    public boolean asynchIo;
    /** {@code -distributed_io}: each processor does disk I/O through its local I/O processor. */
    public boolean distributedIo;
    /** {@code -dma_bw v}: disk DMA bandwidth, MB/s. */
    public double dmaBandwidth = 20;
    /** {@code -disk_latency v}: average disk latency, ms. */
    public double diskLatency = 10;
    /** {@code -ipc v}: instructions per cycle. */
    public double ipc = 2;
    /** {@code -mhz v}: processor clock rate in MHz (SPEC §4); instructions = µs × mhz × ipc. */
    public double mhz = 120;
    /**
     * Continue instead of failing: bad records are skipped, and a replay passes deadlocks, threads ending inside
     * critical sections, unmatched joins and mismatched call traces, listing each in {@link Replay#problems()}.
     */
    public boolean skipBadRecords;
    /**
     * Rebuild the instruction stream exactly where the trace set's symbol sidecar gives the memory-access
     * instructions' offsets (SPEC §4; thread traces, not with {@code -i}); false: as seed 000 §3 does, each
     * memory-access record's instruction at the program counter ({@code dsmscope ciat --seed-stream}).
     */
    public boolean exactStream = true;
    /**
     * A routed replay ({@link Replay#runRouted}) routes the threads with branch and procedure records by address,
     * each partition reconstructing their instruction streams (module README "Threads with an instruction
     * stream"), instead of giving every partition all their records; also the system property {@value
     * Prescan#STREAMS_BY_ADDRESS}. Off by default: on the traces measured it costs as much CPU as whole threads.
     */
    public boolean streamsByAddress;
    /**
     * Byte order of headerless (classic) trace files, or null: big-endian unless detected (trace/README.md). A short
     * little-endian classic file cannot be detected with certainty and needs it ({@code --byte-order little}).
     */
    public java.nio.ByteOrder byteOrder;

    /** Instructions equivalent to {@code micros} microseconds. */
    public long instructionsForMicros(double micros) {
        return Math.round(micros * mhz * ipc);
    }

    /** Checks ranges; throws {@link org.dsmscope.trace.BadInputException} naming the option. */
    public void validate() {
        check(interleave >= 0 && interleave <= 4096, "-i", interleave, "0..4096");
        check(sliceLength >= 1, "-s", sliceLength, "at least 1 instruction");
        check(dmaBandwidth > 0, "-dma_bw", dmaBandwidth, "more than 0 MB/s");
        check(diskLatency >= 0, "-disk_latency", diskLatency, "0 ms or more");
        check(ipc > 0 && ipc <= 64, "-ipc", ipc, "more than 0, at most 64");
        check(mhz > 0 && mhz <= 100_000, "-mhz", mhz, "more than 0, at most 100000");
        if ((affinity || rrInterleaving || keepLongSlices) && interleave == 0) {
            throw new org.dsmscope.trace.BadInputException(
                    "options -a, -rr_interleaving and -k need -i p (interleaving on p processors)");
        }
    }

    private static void check(boolean ok, String option, Object value, String range) {
        if (!ok) {
            throw new org.dsmscope.trace.BadInputException("option " + option + ": value " + value
                    + " out of range (" + range + ")");
        }
    }
}
