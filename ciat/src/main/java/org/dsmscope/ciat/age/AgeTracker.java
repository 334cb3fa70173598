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
        // No key has a timestamp >= t yet, so the keys last accessed in [pmin, t-1] are all live keys minus
        // those last accessed before pmin: one prefix walk.
        long age = fresh > 0 ? -1 : live - prefix(pmin - 1);
        live += fresh;
        int moved = 0;
        for (long k = first; k <= lastKey; ) {
            int s = pages.get(k >>> PAGE_SHIFT);
            int[] l = last[s];
            int off = (int) (k & (PAGE - 1));
            long pageEnd = k | (PAGE - 1);
            int end = (int) (Math.min(lastKey, pageEnd) & (PAGE - 1));
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
                moved++;
            }
            if (run > 0 && runTs > 0) {
                dec(runTs, run);
            }
            k = pageEnd + 1;
            if (pageEnd == -1L) {
                break;
            }
        }
        for (int i = t; i <= cap; i += i & -i) {
            fen[i] += moved;
        }
        return age;
    }

    /** {@link #access} of keys {@code off..end} of one page (the common case: one page lookup, same result). */
    private long accessInPage(int t, int[] l, int off, int end) {
        int pmin = Integer.MAX_VALUE;
        int fresh = 0;
        for (int i = off; i <= end; i++) {
            int p = l[i];
            if (p == 0) {
                fresh++;
            } else if (p < pmin) {
                pmin = p;
            }
        }
        long age = fresh > 0 ? -1 : live - prefix(pmin - 1);
        live += fresh;
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
        int moved = end - off + 1;
        for (int i = t; i <= cap; i += i & -i) {
            fen[i] += moved;
        }
        return age;
    }

    private void dec(int ts, int n) {
        for (int i = ts; i <= cap; i += i & -i) {
            fen[i] -= n;
        }
    }

    private long prefix(int i) {
        long s = 0;
        for (; i > 0; i -= i & -i) {
            s += fen[i];
        }
        return s;
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
        for (int t = 1; t <= now; t++) {
            if (cnt[t] != 0) {
                nf[rank[t]] = cnt[t];
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
    }
}
