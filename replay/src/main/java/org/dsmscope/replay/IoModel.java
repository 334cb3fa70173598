package org.dsmscope.replay;

import org.dsmscope.trace.BadInputException;

/**
 * Disk I/O timing with {@code -handle_io} (seed 000 Appendix B, SPEC §4): an I/O of b bytes takes the disk latency
 * plus b / DMA bandwidth, converted to instructions with {@code -mhz} and {@code -ipc}. Transfers of one I/O
 * processor are serialized: centered I/O (default) has one I/O processor for every processor, {@code
 * -distributed_io} one per processor, so concurrent transfers from different processors overlap. A process blocks
 * on reads, and on writes unless {@code -buffered_io} (writes go to the buffer cache and the disk behind); with
 * {@code -asynch_io} it never blocks.
 */
final class IoModel {
    /**
     * Largest completion clock an I/O may have: 2^50 instructions. Far beyond any trace's own length, and small
     * enough that per-thread times summed over 8191 threads stay exact in a {@code long}; a latency or bandwidth
     * option that pushes a clock past it is refused instead of wrapping around.
     */
    static final long CLOCK_LIMIT = 1L << 50;
    private final ReplayOptions o;
    private final long latency;
    private final long[] free;

    IoModel(ReplayOptions o, int processors) {
        this.o = o;
        this.latency = o.instructionsForMicros(o.diskLatency * 1000.0);
        this.free = new long[Math.max(1, processors)];
    }

    /** True if a file read (or write) blocks the process. */
    boolean blocks(boolean read) {
        return o.handleIo && !o.asynchIo && (read || !o.bufferedIo);
    }

    /** Transfer time of {@code bytes} bytes in instructions. */
    long transfer(long bytes) {
        return o.instructionsForMicros(bytes / o.dmaBandwidth);
    }

    /**
     * Books an I/O issued at {@code clock} by processor {@code cpu} and returns its completion clock: the disk
     * latency first, then the transfer once the I/O processor is free.
     */
    long complete(long clock, long bytes, int cpu) {
        int q = o.distributedIo ? cpu % free.length : 0;
        long transfer = transfer(bytes);
        if (latency > CLOCK_LIMIT || transfer > CLOCK_LIMIT) {
            throw tooLate(clock, bytes);
        }
        long start = Math.max(clock + latency, free[q]);
        long done = start + transfer;
        if (done > CLOCK_LIMIT) {
            throw tooLate(clock, bytes);
        }
        free[q] = done;
        return done;
    }

    private BadInputException tooLate(long clock, long bytes) {
        return new BadInputException(String.format(java.util.Locale.ROOT, "-handle_io: a disk I/O of %d bytes"
                + " issued at clock %d would complete past 2^50 instructions, the pseudo clocks' limit"
                + " (-disk_latency %s ms, -dma_bw %s MB/s, -mhz %s, -ipc %s): lower the latency or raise the"
                + " bandwidth", bytes, clock, num(o.diskLatency), num(o.dmaBandwidth), num(o.mhz), num(o.ipc)));
    }

    private static String num(double v) {
        return Double.isFinite(v) ? java.math.BigDecimal.valueOf(v).stripTrailingZeros().toPlainString()
                : Double.toString(v);
    }
}
