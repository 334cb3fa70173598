package org.dsmscope.replay;

/**
 * Disk I/O timing with {@code -handle_io} (seed 000 Appendix B, SPEC §4): an I/O of b bytes takes the disk latency
 * plus b / DMA bandwidth, converted to instructions with {@code -mhz} and {@code -ipc}. Transfers of one I/O
 * processor are serialized: centered I/O (default) has one I/O processor for every processor, {@code
 * -distributed_io} one per processor, so concurrent transfers from different processors overlap. A process blocks
 * on reads, and on writes unless {@code -buffered_io} (writes go to the buffer cache and the disk behind); with
 * {@code -asynch_io} it never blocks.
 */
final class IoModel {
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
        long start = Math.max(clock + latency, free[q]);
        long done = start + transfer(bytes);
        free[q] = done;
        return done;
    }
}
