package org.dsmscope.ciat.age;

import org.dsmscope.ciat.table.PageMap;

/**
 * Exact access age over one access stream (seed 001 §5.2, SPEC §5) in O(log n) per access: the number of distinct
 * locations (keys) accessed from the previous access of a key to this access, inclusive; infinite on a first
 * access; an access of several keys takes the largest age among them, infinite if any key is new.
 *
 * <p>Algorithm: every access gets a timestamp {@code now}; {@code last[key]} holds the timestamp of the key's most
 * recent access, and a Fenwick tree over timestamps holds at position t the number of keys whose most recent
 * access is t. The age of an access whose oldest previous timestamp among its keys is p is the number of keys with
 * most recent access in [p, now-1] &mdash; all live keys minus one prefix sum &mdash; because every key of the current access
 * lies in that range too. The keys then move to {@code now} (adjacent keys with the same previous timestamp are
 * moved with one tree update). When timestamps reach the tree's capacity, live timestamps are renumbered densely
 * (order kept) and the tree rebuilt, so memory stays proportional to the distinct keys, not the trace length.
 *
 * <p>Layout: keys in pages of 4096 found through a {@link PageMap}; per aligned group of 4 keys one {@code int}:
 * 0 = no key of the group accessed yet, &gt; 0 = the timestamp of all four keys (the common case: aligned 4- and
 * 8-byte accesses move whole groups, so a group's keys share a timestamp), &lt; 0 = the group is split and its four
 * keys' timestamps (0 = never) are in a side table ({@code split}, entry -e-1); a split group whose keys come to
 * share a timestamp again is joined and its entry reused. Results are exactly those of one timestamp per key. The
 * newest {@value #CHUNK} timestamps' counts stay in a small array and enter the tree in one walk per chunk.
 * Not thread-safe; no allocation per access except when a new page is touched or the side table grows.
 */
public final class AgeTracker {
    /** log2 of the keys per page. */
    private static final int PAGE_SHIFT = 12;
    /** log2 of the keys per group. */
    private static final int GROUP_SHIFT = 2;
    /** Keys per group. */
    private static final int GROUP = 1 << GROUP_SHIFT;
    /** log2 of the groups per page. */
    private static final int GROUPS_SHIFT = PAGE_SHIFT - GROUP_SHIFT;
    /** Groups per page. */
    private static final int GROUPS = 1 << GROUPS_SHIFT;
    /** Timestamps per chunk: counts of the newest chunk live in {@link #recent}, not yet in the tree. */
    private static final int CHUNK = 1024;
    /** log2 of the timestamps per block of the chunk (block sums make a count over the chunk short). */
    private static final int BLOCK_SHIFT = 6;

    private final PageMap pages = new PageMap();
    private int[][] last = new int[64][];
    /** Split groups: four key timestamps per entry. */
    private int[] split = new int[4 * 64];
    private int splitUsed;
    private int[] freeSplit = new int[16];
    private int freeCount;
    private int now;
    private int cap;
    private int[] fen;
    private long live;
    /** First timestamp of the current chunk (1 + a multiple of CHUNK). */
    private int chunk = 1;
    /** Counts of timestamps chunk..chunk+CHUNK-1. */
    private final int[] recent = new int[CHUNK];
    /** Sums of {@link #recent} per block of 2^BLOCK_SHIFT timestamps. */
    private final int[] blockSum = new int[CHUNK >> BLOCK_SHIFT];
    // The run of equal previous timestamps being removed (pass 2 of an access).
    private int runTs;
    private int run;

    /** An empty tracker. */
    public AgeTracker() {
        cap = 1 << 12;
        fen = new int[cap + 1];
    }

    /** Number of key pages allocated (4096 keys each). */
    public int pages() {
        return pages.size();
    }

    /** Bytes of state held (group timestamps, split groups, tree, map). */
    public long footprintBytes() {
        return (long) pages.size() * GROUPS * 4 + split.length * 4L + fen.length * 4L + pages.footprintBytes()
                + last.length * 8L;
    }

    /**
     * An access to keys {@code first..lastKey} inclusive (non-negative). Returns the age in keys, or -1 if
     * infinite.
     */
    public long access(long first, long lastKey) {
        if (now + 1 >= cap) {
            compact();
        }
        int t = ++now;
        if (t == chunk + CHUNK) {
            flush();
        }
        long g0 = first >>> GROUP_SHIFT;
        long g1 = lastKey >>> GROUP_SHIFT;
        // Pass 1: the oldest previous timestamp among the keys, or a new key.
        int pmin = Integer.MAX_VALUE;
        boolean fresh = false;
        boolean onePg = (g0 >>> GROUPS_SHIFT) == (g1 >>> GROUPS_SHIFT);
        int[] l = null;
        for (long g = g0; g <= g1; g++) {
            if (l == null || (g & (GROUPS - 1)) == 0) {
                int s = slot(g >>> GROUPS_SHIFT); // before reading the field: slot() may grow the array
                l = last[s];
            }
            int e = l[(int) (g & (GROUPS - 1))];
            if (e > 0) {
                pmin = Math.min(pmin, e);
            } else if (e == 0) {
                fresh = true;
            } else {
                int base = (-e - 1) << GROUP_SHIFT;
                int lo = g == g0 ? (int) (first & (GROUP - 1)) : 0;
                int hi = g == g1 ? (int) (lastKey & (GROUP - 1)) : GROUP - 1;
                for (int k = lo; k <= hi; k++) {
                    int p = split[base + k];
                    if (p == 0) {
                        fresh = true;
                    } else {
                        pmin = Math.min(pmin, p);
                    }
                }
            }
        }
        long age = fresh ? -1 : since(pmin);
        // Pass 2: move the keys to t, removing runs of equal previous timestamps from their counts.
        runTs = 0;
        run = 0;
        l = onePg ? l : null;
        for (long g = g0; g <= g1; g++) {
            if (l == null || (!onePg && (g & (GROUPS - 1)) == 0)) {
                l = last[pages.get(g >>> GROUPS_SHIFT)];
            }
            int gi = (int) (g & (GROUPS - 1));
            int lo = g == g0 ? (int) (first & (GROUP - 1)) : 0;
            int hi = g == g1 ? (int) (lastKey & (GROUP - 1)) : GROUP - 1;
            int e = l[gi];
            if (lo == 0 && hi == GROUP - 1) {
                // the whole group moves to t
                if (e > 0) {
                    count(e, GROUP);
                } else if (e == 0) {
                    live += GROUP;
                } else {
                    moveKeys(-e - 1, 0, GROUP - 1, 0);
                    release(-e - 1);
                }
                l[gi] = t;
            } else {
                int idx;
                if (e < 0) {
                    idx = -e - 1;
                } else {
                    idx = allocate(e);
                    l[gi] = -idx - 1;
                }
                moveKeys(idx, lo, hi, t);
                int b = idx << GROUP_SHIFT;
                if (split[b] == t && split[b + 1] == t && split[b + 2] == t && split[b + 3] == t) {
                    release(idx);
                    l[gi] = t;
                }
            }
        }
        if (run > 0) {
            dec(runTs, run);
        }
        int moved = (int) (lastKey - first + 1);
        recent[t - chunk] += moved;
        blockSum[(t - chunk) >> BLOCK_SHIFT] += moved;
        return age;
    }


    /** Counts n keys leaving timestamp ts (runs of equal timestamps are removed from the counts at once). */
    private void count(int ts, int n) {
        if (ts != runTs) {
            if (run > 0) {
                dec(runTs, run);
            }
            runTs = ts;
            run = 0;
        }
        run += n;
    }

    /** Keys lo..hi of split group idx move to t (t = 0: only count them out, the group is being joined). */
    private void moveKeys(int idx, int lo, int hi, int t) {
        int b = idx << GROUP_SHIFT;
        for (int k = lo; k <= hi; k++) {
            int p = split[b + k];
            if (p == 0) {
                live++;
            } else {
                count(p, 1);
            }
            split[b + k] = t;
        }
    }

    /** A split entry whose four keys hold timestamp e (0 = never). */
    private int allocate(int e) {
        int idx;
        if (freeCount > 0) {
            idx = freeSplit[--freeCount];
        } else {
            idx = splitUsed++;
            if ((idx << GROUP_SHIFT) >= split.length) {
                split = java.util.Arrays.copyOf(split, split.length * 2);
            }
        }
        int b = idx << GROUP_SHIFT;
        split[b] = e;
        split[b + 1] = e;
        split[b + 2] = e;
        split[b + 3] = e;
        return idx;
    }

    private void release(int idx) {
        int b = idx << GROUP_SHIFT;
        split[b] = 0;
        split[b + 1] = 0;
        split[b + 2] = 0;
        split[b + 3] = 0;
        if (freeCount == freeSplit.length) {
            freeSplit = java.util.Arrays.copyOf(freeSplit, freeCount * 2);
        }
        freeSplit[freeCount++] = idx;
    }

    /**
     * Live keys whose most recent access is at or after timestamp {@code p} (before the current access moves
     * any key): the current chunk's counts from p on, plus, for p before the chunk, the tree's suffix from p.
     */
    private long since(int p) {
        int[] r = recent;
        if (p >= chunk) {
            // counts after now are still 0: the rest of p's block, then the block sums up to now's block
            int i0 = p - chunk;
            int b0 = i0 >> BLOCK_SHIFT;
            long s = 0;
            for (int i = i0, e = (b0 + 1) << BLOCK_SHIFT; i < e; i++) {
                s += r[i];
            }
            for (int b = b0 + 1, e = (now - chunk) >> BLOCK_SHIFT; b <= e; b++) {
                s += blockSum[b];
            }
            return s;
        }
        return live - prefix(p - 1);
    }

    /** Removes n keys from timestamp ts. */
    private void dec(int ts, int n) {
        if (ts >= chunk) {
            recent[ts - chunk] -= n;
            blockSum[(ts - chunk) >> BLOCK_SHIFT] -= n;
            return;
        }
        for (int i = ts; i <= cap; i += i & -i) {
            fen[i] -= n;
        }
    }

    /** Sum of the tree's counts at timestamps 1..i (all before the current chunk). */
    private long prefix(int i) {
        long s = 0;
        for (; i > 0; i -= i & -i) {
            s += fen[i];
        }
        return s;
    }

    /**
     * Adds the current chunk's counts to the tree and starts the next chunk: the tree nodes inside the aligned
     * chunk are built in O(CHUNK) (as the linear-time Fenwick build), the nodes above it get the chunk's total on
     * one upward walk, so the per-access cost of the tree is one walk per CHUNK timestamps.
     */
    private void flush() {
        int[] r = recent;
        int base = chunk - 1;
        for (int i = 1; i <= CHUNK; i++) {
            int j = i + (i & -i);
            if (j <= CHUNK) {
                r[j - 1] += r[i - 1];
            }
        }
        int[] f = fen;
        for (int i = 1; i <= CHUNK; i++) {
            f[base + i] += r[i - 1];
        }
        int total = r[CHUNK - 1];
        int e = base + CHUNK;
        for (int i = e + (e & -e); i <= cap; i += i & -i) {
            f[i] += total;
        }
        java.util.Arrays.fill(r, 0);
        java.util.Arrays.fill(blockSum, 0);
        chunk += CHUNK;
    }

    private int slot(long page) {
        int s = pages.getOrAdd(page);
        if (s == last.length) {
            last = java.util.Arrays.copyOf(last, s * 2);
        }
        if (last[s] == null) {
            last[s] = new int[GROUPS];
        }
        return s;
    }

    /** Renumbers live timestamps 1..live in order and rebuilds the tree, growing it if more than half full. */
    private void compact() {
        flush(); // the current chunk's counts into the tree: the renumbering sees every count there
        // Point values from the tree: undo the O(n) build in reverse order.
        int[] cnt = fen;
        for (int i = cap; i >= 1; i--) {
            int j = i + (i & -i);
            if (j <= cap) {
                cnt[j] -= cnt[i];
            }
        }
        int[] rank = new int[cap + 1];
        int liveTs = 0;
        for (int t = 1; t <= now; t++) {
            if (cnt[t] != 0) {
                rank[t] = ++liveTs;
            }
        }
        for (int s = 0; s < pages.size(); s++) {
            int[] l = last[s];
            for (int i = 0; i < GROUPS; i++) {
                if (l[i] > 0) {
                    l[i] = rank[l[i]];
                }
            }
        }
        for (int i = 0, e = splitUsed << GROUP_SHIFT; i < e; i++) {
            if (split[i] != 0) {
                split[i] = rank[split[i]];
            }
        }
        int newCap = cap;
        long keys = (long) pages.size() << PAGE_SHIFT;
        while (liveTs * 2L > newCap || (newCap < keys / 8 && newCap < (1 << 29))) {
            if (newCap > (1 << 29)) {
                throw new IllegalStateException("access age: more than 2^28 live timestamps");
            }
            newCap *= 2;
        }
        int[] nf = new int[newCap + 1];
        // The chunk after renumbering: the newest timestamps' counts stay in recent, the rest go to the tree.
        int newChunk = (liveTs / CHUNK) * CHUNK + 1;
        for (int t = 1; t <= now; t++) {
            if (cnt[t] != 0) {
                int r = rank[t];
                if (r >= newChunk) {
                    recent[r - newChunk] = cnt[t];
                    blockSum[(r - newChunk) >> BLOCK_SHIFT] += cnt[t];
                } else {
                    nf[r] = cnt[t];
                }
            }
        }
        for (int i = 1; i <= newCap; i++) {
            int j = i + (i & -i);
            if (j <= newCap) {
                nf[j] += nf[i];
            }
        }
        fen = nf;
        cap = newCap;
        now = liveTs;
        chunk = newChunk;
    }
}
