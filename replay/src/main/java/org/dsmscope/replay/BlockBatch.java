package org.dsmscope.replay;

import org.dsmscope.trace.MemType;

/**
 * The first pass of a {@link RouteSplitter} over a batch of memory-record words when its router decides by block
 * (SPEC §4 "Partitioning", replay/README.md "Partitioned replay", "Decided by block"): it classifies every word of
 * the batch before anything is written, with no branch that depends on how the words' blocks follow each other:
 * the partitions of each access as a bit mask (from {@value #SLOTS} remembered block answers, direct-mapped, or
 * from the router), the data bytes before it, and the last access before it that may not go to a partition as a
 * filled one (of no byte, or crossing a 4 KiB page). The splitter then gives each partition its share from the
 * masks ({@link #list} for one partition, {@link #bucket} for many at once). For at most 64 partitions; not thread-safe.
 */
final class BlockBatch {
    /** Slots of the block answers. */
    static final int SLOTS = 256;

    private final Replay.Router route;
    /** The router when it gives a spin partition more (it is told loads from stores), else null. */
    private final SpinRoutes.Routing spin;
    private final int thread;
    private final int bits;
    private final int[] to;
    /** Per slot: the block whose answer {@link #answer} holds (asked twice: the answer of its later accesses), or -1. */
    private final long[] tag = new long[SLOTS];
    /** Per slot: the answer of block {@link #tag}, as a mask. */
    private final long[] answer = new long[SLOTS];
    /** Per slot: the last block asked once, or -1. */
    private final long[] once = new long[SLOTS];

    /** Per word of the batch: its partitions. */
    final long[] masks;
    /** Per word of the batch: the data bytes of the batch before it. */
    final long[] before;
    /** Per word of the batch: the last word before it that cannot be filled (-1: none in the batch). */
    final int[] lastBad;
    /** Per partition: its words of the batch after {@link #bucket} (made when first needed). */
    final int[][] lists;
    /** Per partition: how many words {@link #lists} holds. */
    final int[] counts;

    /** The partitions of any of the batch's words. */
    long any;
    /** The partitions of every one of the batch's words. */
    long every;

    /**
     * Classifies batches of up to {@code max} words of thread {@code thread} for {@code route}, which decides by
     * blocks of 2^{@code bits} bytes ({@code spin}: the same router, told loads from stores), into {@code to}'s
     * partitions.
     */
    BlockBatch(Replay.Router route, SpinRoutes.Routing spin, int thread, int bits, int max) {
        this.route = route;
        this.spin = spin;
        this.thread = thread;
        this.bits = bits;
        this.to = new int[64];
        this.lists = new int[64][];
        this.counts = new int[64];
        java.util.Arrays.fill(tag, -1);
        java.util.Arrays.fill(once, -1);
        masks = new long[max];
        before = new long[max + 1];
        lastBad = new int[max];
    }

    /**
     * Classifies the {@code n} memory-record words of {@code words} from {@code from} (addresses' high word {@code
     * high}) into {@link #masks}, {@link #before} ({@code before[n]}: the batch's bytes), {@link #lastBad}, {@link #any}
     * and {@link #every}.
     */
    void classify(long[] words, int from, int n, long high) {
        long inBlock = (1L << bits) - 1;
        long or = 0;
        long and = -1;
        long sum = 0;
        int bad = -1;
        for (int r = 0; r < n; r++) {
            long word = words[from + r];
            int f1 = (int) (word >>> 32);
            int size = MemType.bytes(f1);
            long a = high | (word & 0xFFFFFFFFL);
            long block = a >>> bits;
            int slot = (int) block & (SLOTS - 1);
            boolean inside = size > 0 & (a & inBlock) + size <= inBlock + 1;
            long m = tag[slot] == block & inside ? answer[slot] : ask(a, size, f1, inside, block, slot);
            masks[r] = m;
            or |= m;
            and &= m;
            before[r] = sum;
            sum += size;
            lastBad[r] = bad;
            if (size <= 0 || (word & 0xFFF) + size > 0x1000) {
                bad = r;
            }
        }
        before[n] = sum;
        any = or;
        every = and;
    }

    /** The router's answer for an access (remembered for its block from the block's second access on). */
    private long ask(long a, int size, int f1, boolean inside, long block, int slot) {
        int c = spin == null ? route.route(thread, a, size, to)
                : spin.route(thread, a, size, (f1 & 0xF) == MemType.STORE, to);
        long m = 0;
        for (int i = 0; i < c; i++) {
            m |= 1L << to[i];
        }
        if (inside) {
            if (once[slot] != block) {
                once[slot] = block; // asked once: a later answer is the block's
            } else {
                answer[slot] = m;
                tag[slot] = block;
            }
        }
        return m;
    }

    /**
     * Writes into {@code into} the batch's words (of {@code n}) that partition {@code p} gets, in order; returns how
     * many.
     */
    int list(int p, int n, int[] into) {
        long[] ms = masks;
        int k = 0;
        for (int r = 0; r < n; r++) {
            into[k] = r;
            k += (int) (ms[r] >>> p) & 1;
        }
        return k;
    }

    /**
     * Writes, for each partition of {@code parts} (a mask), the batch's words (of {@code n}) that it gets into its
     * {@link #lists}, in order, and how many into {@link #counts}: one pass over the words for all of them, looking
     * only at the bits of {@code parts} (where many partitions each get a few of the words, {@link #list} would pass
     * over every word once per partition).
     */
    void bucket(long parts, int n) {
        for (long q = parts; q != 0; q &= q - 1) {
            int p = Long.numberOfTrailingZeros(q);
            if (lists[p] == null) {
                lists[p] = new int[masks.length];
            }
            counts[p] = 0;
        }
        long[] ms = masks;
        int[][] ls = lists;
        int[] cs = counts;
        for (int r = 0; r < n; r++) {
            for (long m = ms[r] & parts; m != 0; m &= m - 1) {
                int p = Long.numberOfTrailingZeros(m);
                ls[p][cs[p]++] = r;
            }
        }
    }
}
