package org.dsmscope.cdat;

import java.util.Arrays;
import org.dsmscope.cdat.config.CacheGeometry;
import org.dsmscope.cdat.config.Replacement;

/**
 * One processor cache: {@code sets × ways} lines in primitive arrays, a line's set its line number mod sets, each way
 * holding a line number and a state ({@link #INVALID}, {@link #SHARED}, {@link #EXCLUSIVE}, {@link #MODIFIED});
 * replacement LRU (least recently used), FIFO (oldest filled) or random (a fixed-seed xorshift per set, so runs
 * repeat). Nothing couples two sets: a set's choices depend only on the accesses to its lines (LRU and FIFO compare
 * stamps within the set; each set draws from its own generator), so a simulation split by set index gives the same
 * choices (cdat/README.md "Partitions").
 * With versions on ({@link CoherenceChecker}), each way also keeps the version of the data it holds.
 * In a partition ({@link Deal}) the arrays hold only the sets of the partition's set indexes, packed, so N partitions
 * together hold one serial run's caches.
 */
final class CacheArray {
    static final byte INVALID = 0;
    static final byte SHARED = 1;
    static final byte EXCLUSIVE = 2;
    static final byte MODIFIED = 3;

    final int sets;
    final int ways;
    private final int setMask;
    private final Replacement replacement;
    final long[] line;
    final byte[] state;
    private final long[] stamp;
    final long[] version;
    private long tick;
    /** Per set: its random replacement generator's state (null unless random; 0 = not yet drawn from). */
    private final long[] random;

    /** The sets held (null: every set). */
    private final Deal deal;

    /** Victim of the last {@link #fill}: its line and state ({@link #INVALID} if the way was free). */
    long victimLine;
    byte victimState;
    long victimVersion;

    /** A cache of geometry {@code g} holding every set. */
    CacheArray(CacheGeometry g, boolean versions) {
        this(g, versions, null);
    }

    /** A cache of geometry {@code g} holding the sets {@code deal} gives a partition (null: every set). */
    CacheArray(CacheGeometry g, boolean versions, Deal deal) {
        this.sets = g.sets();
        this.ways = g.associativity();
        this.setMask = sets - 1;
        this.replacement = g.replacement();
        this.deal = deal;
        int held = deal == null ? sets : deal.held(sets);
        int n = held * ways;
        line = new long[n];
        state = new byte[n];
        stamp = new long[n];
        version = versions ? new long[n] : null;
        random = replacement == Replacement.RANDOM ? new long[held] : null;
    }

    /**
     * The sets a partition holds (cdat/README.md "Partitions"): a set's index mod {@code dealt} ({@link
     * Cdat#partitionSets}, a power of two dividing every cache's sets) is dealt to {@code parts} partitions in
     * contiguous ranges ({@link #partOf}); a partition keeps the sets of its indexes, packed block by block of
     * {@code dealt} sets.
     */
    static final class Deal {
        private final int shift;
        private final int mask;
        private final int perBlock;
        /** Per index mod dealt: its rank among this partition's indexes, or a negative number (not held). */
        private final int[] slot;

        /** The sets of partition {@code part} of {@code parts}, {@code dealt} set indexes dealt. */
        Deal(int dealt, int part, int parts) {
            shift = Integer.numberOfTrailingZeros(dealt);
            mask = dealt - 1;
            slot = new int[dealt];
            int n = 0;
            for (int i = 0; i < dealt; i++) {
                // an index of another partition: far below 0, so a way computed from it is out of the arrays
                slot[i] = partOf(i, shift, parts) == part ? n++ : Integer.MIN_VALUE / 2;
            }
            perBlock = n;
        }

        /**
         * The partition of set index {@code index} (below {@code 1 << dealtShift}) among {@code parts}: the indexes
         * in contiguous ranges, partition k those from ceil(k × dealt / parts), so neighbouring lines, up to
         * dealt / parts of them, belong to one partition (a sequential stream stays in one partition that long).
         */
        static int partOf(long index, int dealtShift, int parts) {
            return (int) (index * parts >>> dealtShift);
        }

        /** This partition's share of {@code n} things spread evenly over the set indexes (rounded up). */
        int share(int n) {
            return (int) (((long) n * perBlock + mask) / (mask + 1));
        }

        /** Sets held of a cache of {@code sets} sets. */
        int held(int sets) {
            return (sets >>> shift) * perBlock;
        }

        /** The position of set {@code set} among those held. */
        int position(int set) {
            return (set >>> shift) * perBlock + slot[set & mask];
        }

        /**
         * Line {@code ln} (one of this partition's: its index mod dealt is held) numbered among this partition's
         * lines, in the same order: the partition's lines numbered densely, as the serial run's are by themselves.
         */
        long line(long ln) {
            return (ln >>> shift) * perBlock + slot[(int) ln & mask];
        }
    }

    /** The position of set {@code set} in the arrays. */
    private int position(int set) {
        return deal == null ? set : deal.position(set);
    }

    /** The next draw of set {@code set}'s generator (xorshift64, seeded from the set index), at {@code at}. */
    private long draw(int set, int at) {
        long x = random[at];
        if (x == 0) {
            x = 0x9E3779B97F4A7C15L ^ (set + 1L) * 0xBF58476D1CE4E5B9L;
            x = x == 0 ? 1 : x;
        }
        x ^= x << 13;
        x ^= x >>> 7;
        x ^= x << 17;
        random[at] = x;
        return x;
    }

    /** The way index holding {@code ln} (valid), or -1. */
    int find(long ln) {
        int base = position((int) (ln & setMask)) * ways;
        for (int i = base, end = base + ways; i < end; i++) {
            if (state[i] != INVALID && line[i] == ln) {
                return i;
            }
        }
        return -1;
    }

    /** The state of {@code ln} here ({@link #INVALID} if absent). */
    byte stateOf(long ln) {
        int i = find(ln);
        return i < 0 ? INVALID : state[i];
    }

    /** Marks way {@code i} used now (LRU). */
    void touch(int i) {
        if (replacement == Replacement.LRU) {
            stamp[i] = ++tick;
        }
    }

    /**
     * Puts {@code ln} (absent) in state {@code st}, evicting a way of its set: the victim is left in {@link
     * #victimLine}, {@link #victimState} and {@link #victimVersion}. Returns the way.
     */
    int fill(long ln, byte st) {
        int set = (int) (ln & setMask);
        int at = position(set);
        int base = at * ways;
        int v = -1;
        for (int i = base, end = base + ways; i < end; i++) {
            if (state[i] == INVALID) {
                v = i;
                break;
            }
        }
        if (v < 0) {
            if (replacement == Replacement.RANDOM) {
                v = base + (int) Long.remainderUnsigned(draw(set, at), ways);
            } else {
                v = base;
                for (int i = base + 1, end = base + ways; i < end; i++) {
                    if (stamp[i] < stamp[v]) {
                        v = i;
                    }
                }
            }
            victimLine = line[v];
            victimState = state[v];
            victimVersion = version == null ? 0 : version[v];
        } else {
            victimState = INVALID;
        }
        line[v] = ln;
        state[v] = st;
        stamp[v] = ++tick;
        return v;
    }

    /** Drops {@code ln} if present; returns the state it had. */
    byte invalidate(long ln) {
        int i = find(ln);
        if (i < 0) {
            return INVALID;
        }
        byte s = state[i];
        state[i] = INVALID;
        return s;
    }

    /** Empties the cache. */
    void clear() {
        Arrays.fill(state, INVALID);
    }
}
