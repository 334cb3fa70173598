package org.dsmscope.ciat.comm;

import org.dsmscope.ciat.table.LocationState;

/**
 * Data accesses of a serial run held for communication's fused pass ({@link Communication#accessTouching}, seed 001
 * §5.4 and §5.6 per byte, with memory usage's marks) and analysed {@value #CAPACITY} at a time, in their order: first
 * a loop that only loads each access's group word (of 8 or 4 locations; independent loads, so their cache misses
 * overlap), then the accesses themselves, whose updates depend on each other and would otherwise each wait for their
 * own miss. Nothing
 * else may touch the location table while accesses are held: the caller {@link #run}s them first. Results, events
 * and their order are those of analysing each access when it arrives. No allocation per access. Not thread-safe.
 */
public final class HeldAccesses {
    /** Accesses held at most. */
    public static final int CAPACITY = 256;

    private final Communication comm;
    private final LocationState loc;
    private final long[] address = new long[CAPACITY];
    private final long[] clock = new long[CAPACITY];
    /** Per access: size (bits 0&ndash;23), store (bit 24). */
    private final int[] sizeStore = new int[CAPACITY];
    private final int[] cpu = new int[CAPACITY];
    private final int[] thread = new int[CAPACITY];
    private final long[] overflow = new long[CAPACITY];
    /**
     * Per access, its page's slot as the first loop of {@link #run} found it (-1: no state yet), so that the second
     * loop needs no page lookup of its own (a slot, not the array: storing a reference costs a write barrier).
     */
    private final int[] slot = new int[CAPACITY];
    private int n;
    private CommStats stats;
    private CommEventSink sink;
    /** Sum of the words loaded ahead (keeps those loads from being optimized away). */
    private long touched;

    /** Holds accesses for {@code comm}, whose location table is {@code loc} (packed layout). */
    public HeldAccesses(Communication comm, LocationState loc) {
        if (!loc.packed()) {
            throw new IllegalArgumentException("held accesses need the packed layout");
        }
        this.comm = comm;
        this.loc = loc;
    }

    /** Accesses held now. */
    public int size() {
        return n;
    }

    /**
     * True if an access counted in {@code st} with events to {@code sk} may join the held ones (they share one
     * {@link CommStats} and one sink; otherwise {@link #run} them first).
     */
    public boolean fits(CommStats st, CommEventSink sk) {
        return n == 0 || (st == stats && sk == sink);
    }

    /**
     * Holds a data access of {@code size} &ge; 1 bytes by {@code thread} on processor {@code p}, as
     * {@link Communication#accessTouching} takes it (after {@link #fits}); returns true when full ({@link #run} it).
     */
    public boolean add(int p, int t, long clk, boolean store, long addr, int size, CommStats st, CommEventSink sk) {
        int i = n;
        address[i] = addr;
        clock[i] = clk;
        sizeStore[i] = store ? size | 1 << 24 : size;
        cpu[i] = p;
        thread[i] = t;
        if (i == 0) {
            // the held accesses share them (fits): stored once per batch, as a reference store costs a write barrier
            stats = st;
            sink = sk;
        }
        n = i + 1;
        return i + 1 == CAPACITY;
    }

    /**
     * Analyses the held accesses in order and empties the hold; returns how many of them found their anchor's
     * access count full, whose addresses {@link #overflowAddress} gives (memory usage counts them elsewhere).
     */
    public int run() {
        int k = n;
        long sum = 0;
        for (int i = 0; i < k; i++) {
            long a = address[i];
            int s = loc.findSlot(a >>> LocationState.PAGE_SHIFT);
            slot[i] = s;
            if (s >= 0) {
                long[] m = loc.state(s);
                sum += m[((int) a & (LocationState.PAGE - 1)) >>> LocationState.groupShift(m)];
            }
        }
        touched += sum;
        int full = 0;
        CommStats st = stats;
        CommEventSink sk = sink;
        for (int i = 0; i < k; i++) {
            int ss = sizeStore[i];
            long a = address[i];
            if (!comm.accessTouching(slot[i], cpu[i], thread[i], clock[i], ss >>> 24 != 0, a, ss & 0xFFFFFF, st, sk)) {
                overflow[full++] = a;
            }
        }
        n = 0;
        stats = null;
        sink = null;
        return full;
    }

    /** The address of held access {@code i} of the last {@link #run} whose count was full. */
    public long overflowAddress(int i) {
        return overflow[i];
    }

    /** Sum of the words loaded ahead (for benchmarks that must keep those loads). */
    public long touched() {
        return touched;
    }
}
