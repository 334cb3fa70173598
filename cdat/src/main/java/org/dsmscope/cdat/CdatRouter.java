package org.dsmscope.cdat;

import java.util.Arrays;
import java.util.List;
import java.util.function.Function;
import org.dsmscope.cdat.config.CdatConfig;
import org.dsmscope.cdat.config.PagePolicy;
import org.dsmscope.replay.Replay;
import org.dsmscope.replay.ReplayContext;

/**
 * Which partitions of a routed CDAT run ({@code Replay.runRouted}, SPEC §4 "Partitioning", seed 000 §5; module
 * README "Partitions") need a data access. Partition k simulates, in every configuration, the lines whose set index
 * among {@link Cdat#partitionSets} lies in its contiguous range ({@code CacheArray.Deal#partOf}), so an access goes to the partition of each line it touches in each
 * configuration (a zero-byte access touches the line of its address, as {@link Cdat} counts it), and, so that what
 * is not per set stays the serial run's, to every partition when:
 * <ul>
 * <li>it is its thread's first access to a page (or a part of one) whose home can depend on the first reference
 * (1Touch and Oracle: any page; {@code -HPUX}: its private range): a superset of the serial run's first references,
 * delivered to each partition at the serial run's place, so every partition places every page as the serial run
 * does ({@link Cdat} notes the page of a line it does not simulate); a page's home never changes afterwards, so no
 * later access is needed;</li>
 * <li>a configuration writes traffic traces and the access spans two of its lines: every partition counts one step
 * of the serial order per line ({@link TrafficOrder}), and of a skipped access only the count is known
 * ({@link Cdat#skipped}), so every skipped access must be one line.</li>
 * </ul>
 * Round-robin pages (RR1, RR2, Oracle's shared and code pages), interconnect caches (dealt by set like the
 * processors' caches), the processors' times and status records (from the replay's schedule, which every partition
 * makes) need nothing more. The first-reference table is per thread and per chunk: a chunk of a thread's trace (a
 * whole trace, or a piece of a large one) is routed in trace order on one router thread by a router of its own
 * ({@link #forChunk}), which alone touches the table. A chunk that begins inside a trace starts with no page noted, so
 * its first access to a page goes to every partition again; that is still a superset of the serial run's first
 * references (the thread's first reference to a page is its first in the chunk that holds it), and a page once placed
 * keeps its home, so the partitions place every page as the serial run does ({@code PartitionedCdatPropertyTest}).
 */
public final class CdatRouter implements Replay.Router {
    /** Pages remembered per thread in the direct-mapped filter in front of the exact table. */
    private static final int RECENT = 256;

    private final int parts;
    /** Per configuration: log2 of its line size, its dealt set indexes - 1, and log2 of their number. */
    private final int[] lineShift;
    private final long[] setMask;
    private final int[] setShift;
    /** log2 of the smallest line of a configuration with traffic traces, or -1 if none writes any. */
    private final int crossShift;
    /** log2 of the smallest page whose placement can depend on the first reference, or -1 if none can. */
    private final int touchShift;
    /** True if any page can be placed by first reference (1Touch, Oracle); else only -HPUX's private range. */
    private final boolean touchAny;
    /** Per thread: the pages (of {@link #touchShift}) it has referenced in this router's chunk. */
    private final Pages[] seen;
    /** A thread's access may be dropped: every access to a page placed by first reference is one (below). */
    private final boolean drops;
    /**
     * One configuration and no page placed by first reference: an access within one line goes to that line's
     * partition alone ({@link #route}'s first test), whether or not traffic traces are written.
     */
    private final boolean oneLine;
    /** The first configuration's {@link #lineShift}, {@link #setMask} and {@link #setShift}. */
    private final int lineShift0;
    private final long setMask0;
    private final int setShift0;

    /**
     * What {@code Replay.runRouted} asks for: the router of the configurations {@code cfgs} (with {@code -HPUX}
     * as {@code hpux} says) in {@code parts} partitions, made from the replay's context after its prescan.
     */
    public static Function<ReplayContext, Replay.Router> of(List<CdatConfig> cfgs, boolean hpux, int parts) {
        return ctx -> new CdatRouter(cfgs, hpux, parts, ctx.threads(), ctx.dropsAccesses());
    }

    /** The router of {@code cfgs} in {@code parts} partitions for {@code threads} threads. */
    CdatRouter(List<CdatConfig> cfgs, boolean hpux, int parts, int threads) {
        this(cfgs, hpux, parts, threads, false);
    }

    /**
     * The same; {@code drops}: a thread's access may be dropped (a marker stops threads, {@link
     * ReplayContext#dropsAccesses}), so no access is known to be a thread's first reference to a page, and every
     * access to a page that can be placed by first reference goes to every partition.
     */
    CdatRouter(List<CdatConfig> cfgs, boolean hpux, int parts, int threads, boolean drops) {
        this.drops = drops;
        if (parts < 1 || parts > Integer.MAX_VALUE / 2) {
            throw new IllegalArgumentException("partitions: " + parts);
        }
        this.parts = parts;
        int n = cfgs.size();
        lineShift = new int[n];
        setMask = new long[n];
        setShift = new int[n];
        int cross = Integer.MAX_VALUE;
        int touch = Integer.MAX_VALUE;
        boolean any = false;
        for (int c = 0; c < n; c++) {
            CdatConfig cfg = cfgs.get(c);
            lineShift[c] = Integer.numberOfTrailingZeros(cfg.lineSize);
            setMask[c] = Cdat.partitionSets(cfg) - 1L;
            setShift[c] = Integer.numberOfTrailingZeros(Cdat.partitionSets(cfg));
            if (cfg.detailedTrace || cfg.generalTrace) {
                cross = Math.min(cross, lineShift[c]);
            }
            boolean byFirst = cfg.pagePolicy == PagePolicy.FIRST_TOUCH || cfg.pagePolicy == PagePolicy.ORACLE;
            if (byFirst || hpux) {
                touch = Math.min(touch, Integer.numberOfTrailingZeros(cfg.pageSize));
                any |= byFirst;
            }
        }
        crossShift = cross == Integer.MAX_VALUE ? -1 : cross;
        touchShift = touch == Integer.MAX_VALUE ? -1 : touch;
        touchAny = any;
        seen = new Pages[touchShift < 0 ? 0 : threads];
        oneLine = n == 1 && touchShift < 0;
        lineShift0 = n == 0 ? 0 : lineShift[0];
        setMask0 = n == 0 ? 0 : setMask[0];
        setShift0 = n == 0 ? 0 : setShift[0];
    }

    /** A router of the same decisions with no page noted yet (for one chunk). */
    private CdatRouter(CdatRouter r) {
        drops = r.drops;
        parts = r.parts;
        lineShift = r.lineShift;
        setMask = r.setMask;
        setShift = r.setShift;
        crossShift = r.crossShift;
        touchShift = r.touchShift;
        touchAny = r.touchAny;
        seen = new Pages[r.seen.length];
        oneLine = r.oneLine;
        lineShift0 = r.lineShift0;
        setMask0 = r.setMask0;
        setShift0 = r.setShift0;
    }

    /**
     * Short runs of accesses a partition does not need go to it as the accesses ({@code Replay.Router#fill}): such an
     * access touches none of the partition's lines, is no first reference the partition must see (its thread's
     * first reference to the page went to every partition before it, and a placed page keeps its home, so noting
     * its page again changes nothing) and, where traffic traces are written, is one line, so {@link Cdat#access}
     * does with it exactly what {@link Cdat#skipped} does with one access: one step of the traffic order.
     */
    @Override
    public int fill() {
        return FILL;
    }

    /** The longest run of accesses given as themselves instead of a gap (as CIAT's router). */
    static final int FILL = 8;

    /** A fresh first-reference table for each chunk; the rest is shared (read only). */
    @Override
    public Replay.Router forChunk() {
        return touchShift < 0 ? this : new CdatRouter(this);
    }

    /**
     * {@inheritDoc} With one configuration and no first-reference placement, an access within one line (every access
     * of a Java trace) costs two shifts, a compare and its line's partition ({@link #owner}); the rest go the general
     * way, which gives the same answer for such an access.
     */
    @Override
    public int route(int thread, long address, int size, int[] to) {
        if (oneLine) {
            long ln = address >>> lineShift0;
            if (size <= 1 || (address + size - 1) >>> lineShift0 == ln) {
                to[0] = CacheArray.Deal.partOf(ln & setMask0, setShift0, parts);
                return 1;
            }
        }
        long end = address + Math.max(size, 1) - 1;
        if (touchShift >= 0 && firstReference(thread, address, end)
                || crossShift >= 0 && address >>> crossShift != end >>> crossShift) {
            return all(to);
        }
        int n = 0;
        for (int c = 0; c < lineShift.length; c++) {
            long last = end >>> lineShift[c];
            for (long ln = address >>> lineShift[c]; ; ln++) {
                int p = owner(ln, c);
                boolean known = false;
                for (int i = 0; i < n; i++) {
                    known |= to[i] == p;
                }
                if (!known) {
                    to[n++] = p;
                    if (n == parts) {
                        return n;
                    }
                }
                if (ln == last) {
                    break;
                }
            }
        }
        return n;
    }

    /** The partition that simulates line {@code ln} of configuration {@code c} (as {@link Cdat} deals them). */
    private int owner(long ln, int c) {
        return CacheArray.Deal.partOf(ln & setMask[c], setShift[c], parts);
    }

    private int all(int[] to) {
        for (int p = 0; p < parts; p++) {
            to[p] = p;
        }
        return parts;
    }

    /**
     * True if the access of bytes {@code address .. end} is thread {@code thread}'s first reference to a page (of
     * {@link #touchShift}) that can be placed by first reference; notes its pages as referenced. Where accesses may
     * be dropped ({@link #drops}) every access to such a page counts as one.
     */
    private boolean firstReference(int thread, long address, long end) {
        long first = address >>> touchShift;
        long last = end >>> touchShift;
        Pages s = seen[thread];
        if (s == null) {
            s = new Pages();
            seen[thread] = s;
        }
        boolean any = false;
        for (long page = first; ; page++) {
            if ((touchAny || hpuxPrivate(page)) && (s.add(page) || drops)) {
                any = true;
            }
            if (page == last) {
                return any;
            }
        }
    }

    /** True if page {@code page} (of {@link #touchShift}) lies in {@code -HPUX}'s private range (as Placement). */
    private boolean hpuxPrivate(long page) {
        long a = page << touchShift;
        return a >= 0x40000000L && a <= 0x7fffffffL;
    }

    /** One thread's referenced pages: a direct-mapped filter of recent ones in front of an exact table. */
    private static final class Pages {
        private final long[] recent = new long[RECENT];
        private final LongIndex all = new LongIndex(64);

        Pages() {
            Arrays.fill(recent, -1); // no page number (an address shifted right) is -1
        }

        /** Notes {@code page}; true if it was not noted before. */
        boolean add(long page) {
            int i = (int) page & (RECENT - 1);
            if (recent[i] == page) {
                return false;
            }
            recent[i] = page;
            int before = all.size();
            all.add(page);
            return all.size() != before;
        }
    }
}
