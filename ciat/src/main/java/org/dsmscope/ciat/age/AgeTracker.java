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
 * <p>Layout: keys in pages of 512 found through a {@link PageMap}, one {@code int} timestamp per key (0 = never).
 * Not thread-safe; no allocation per access except when a new page is touched.
 */
public final class AgeTracker {
    /** Keys per page: small (512) so that sparsely touched regions (a thread's view of shared data) waste little. */
    private static final int PAGE_SHIFT = 9;
    private static final int PAGE = 1 << PAGE_SHIFT;

    private final PageMap pages = new PageMap();
    private int[][] last = new int[64][];
    private int now;
    private int cap;
    private int[] fen;
    private long live;
    /** Timestamps per chunk: counts of the newest chunk live in {@link #recent}, not yet in the tree. */
    private static final int CHUNK = 64;
    /** First timestamp of the current chunk (1 + a multiple of CHUNK). */
    private int chunk = 1;
    /** Counts of timestamps chunk..chunk+CHUNK-1. */
    private final int[] recent = new int[CHUNK];
    private long recentTotal;

    /** An empty tracker. */
    public AgeTracker() {
        cap = 1 << 12;
        fen = new int[cap + 1];
    }

    /** Number of keys pages allocated. */
    public int pages() {
        return pages.size();
    }

    /** Bytes of state held (timestamps, tree, map). */
    public long footprintBytes() {
        return (long) pages.size() * PAGE * 4 + fen.length * 4L + pages.footprintBytes()
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
        long page = first >>> PAGE_SHIFT;
        if (page == lastKey >>> PAGE_SHIFT) {
            int s = slot(page); // before reading the field: slot() may grow the array
            return accessInPage(t, last[s], (int) (first & (PAGE - 1)), (int) (lastKey & (PAGE - 1)));
        }
        int pmin = Integer.MAX_VALUE;
        int fresh = 0;
        // Pass 1: oldest previous timestamp; pass 2: move keys to now.
        for (long k = first; k <= lastKey; ) {
            int s = slot(k >>> PAGE_SHIFT);
            int[] l = last[s];
            int off = (int) (k & (PAGE - 1));
            long pageEnd = k | (PAGE - 1);
            int end = (int) (Math.min(lastKey, pageEnd) & (PAGE - 1));
            for (int i = off; i <= end; i++) {
                int p = l[i];
                if (p == 0) {
                    fresh++;
                } else if (p < pmin) {
                    pmin = p;
                }
            }
            k = pageEnd + 1;
            if (pageEnd == -1L) {
                break;
            }
        }
        long age = fresh > 0 ? -1 : since(pmin);
        live += fresh;
        int moved = 0;
        for (long k = first; k <= lastKey; ) {
            int s = pages.get(k >>> PAGE_SHIFT);
            int off = (int) (k & (PAGE - 1));
            long pageEnd = k | (PAGE - 1);
            int end = (int) (Math.min(lastKey, pageEnd) & (PAGE - 1));
            move(t, last[s], off, end);
            moved += end - off + 1;
            k = pageEnd + 1;
            if (pageEnd == -1L) {
                break;
            }
        }
        recent[t - chunk] += moved;
        recentTotal += moved;
        return age;
    }

    /** {@link #access} of keys {@code off..end} of one page (the common case: one page lookup, same result). */
    private long accessInPage(int t, int[] l, int off, int end) {
        int p0 = l[off];
        int pmin = p0;
        boolean same = true;
        for (int i = off + 1; i <= end; i++) {
            int p = l[i];
            same &= p == p0;
            pmin = Math.min(pmin, p);
        }
        int n = end - off + 1;
        if (same) {
            // The common case: the keys share one previous timestamp (or are all new): one run.
            l[off] = t;
            for (int i = off + 1; i <= end; i++) {
                l[i] = t;
            }
            long age;
            if (p0 == 0) {
                age = -1;
                live += n;
            } else {
                age = since(p0);
                dec(p0, n);
            }
            recent[t - chunk] += n;
            recentTotal += n;
            return age;
        }
        long age;
        if (pmin == 0) {
            // some key is new: infinite; count the new keys
            int fresh = 0;
            for (int i = off; i <= end; i++) {
                fresh += l[i] == 0 ? 1 : 0;
            }
            age = -1;
            live += fresh;
        } else {
            age = since(pmin);
        }
        move(t, l, off, end);
        recent[t - chunk] += n;
        recentTotal += n;
        return age;
    }

    /** Moves keys {@code off..end} of page array {@code l} to timestamp t, removing each run from its old count. */
    private void move(int t, int[] l, int off, int end) {
        int run = 0;
        int runTs = -1;
        for (int i = off; i <= end; i++) {
            int p = l[i];
            if (p != runTs) {
                if (run > 0 && runTs > 0) {
                    dec(runTs, run);
                }
                runTs = p;
                run = 0;
            }
            run++;
            l[i] = t;
        }
        if (run > 0 && runTs > 0) {
            dec(runTs, run);
        }
    }

    /**
     * Live keys whose most recent access is at or after timestamp {@code p} (before the current access moves
     * any key): the current chunk's counts from p on, plus, for p before the chunk, the tree's suffix from p.
     */
    private long since(int p) {
        int[] r = recent;
        if (p >= chunk) {
            long s = 0;
            for (int i = p - chunk, e = now - chunk; i < e; i++) {
                s += r[i];
            }
            return s;
        }
        return live - prefix(p - 1);
    }

    /** Removes n keys from timestamp ts. */
    private void dec(int ts, int n) {
        if (ts >= chunk) {
            recent[ts - chunk] -= n;
            recentTotal -= n;
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
        recentTotal = 0;
        chunk += CHUNK;
    }

    private int slot(long page) {
        int s = pages.getOrAdd(page);
        if (s == last.length) {
            last = java.util.Arrays.copyOf(last, s * 2);
        }
        if (last[s] == null) {
            last[s] = new int[PAGE];
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
            for (int i = 0; i < PAGE; i++) {
                if (l[i] != 0) {
                    l[i] = rank[l[i]];
                }
            }
        }
        int newCap = cap;
        long keys = (long) pages.size() * PAGE;
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
                    recentTotal += cnt[t];
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
