package org.dsmscope.ciat.age;

import org.dsmscope.ciat.table.PageMap;

/**
 * Exact access age over one access stream (seed 001 §5.2, SPEC §5) in O(log n) per access: the number of distinct
 * locations (keys) accessed from the previous access of a key to this access, inclusive; infinite on a first
 * access; an access of several keys takes the largest age among them, infinite if any key is new.
 *
 * <p>Algorithm: every access gets a timestamp {@code now}; {@code last[key]} holds the timestamp of the key's most
 * recent access, and {@code cnt[t]} the number of keys whose most recent access is t, with sums per block of 32
 * timestamps, per superblock of 32 blocks, and a Fenwick tree over the superblocks (a few hundred nodes: it stays
 * in the L1 cache; an update is one block sum, one superblock sum and one short walk). The age of an access whose
 * oldest previous timestamp among its keys is p is the number of keys with most recent access in [p, now-1]
 * &mdash; the rest of p's block plus all live keys minus one block prefix sum (the tree's superblock prefix plus at
 * most 16 block sums) &mdash; because every key of the current access lies in that
 * range too. The keys then move to {@code now} (adjacent keys with the same previous timestamp are moved with one
 * update). The newest {@value #PENDING} blocks' sums are kept beside the tree and enter it when timestamps move past
 * them, so short reuse distances cost no tree walk at all. When timestamps reach the capacity,
 * live timestamps are renumbered densely (order kept) and the tree rebuilt, so memory stays proportional to the
 * distinct keys, not the trace length.
 *
 * <p>Layout: keys in pages of 4096 found through a {@link PageMap}; a page whose accesses all covered whole aligned
 * groups of 8 keys (8- and 16-byte data) is wide: one {@code int} per group of 8 keys, the timestamp of all eight
 * (0 = not accessed yet), half a byte per key. Any other page, or a wide page at its first access that covers part
 * of a group of 8, has one {@code int} per aligned group of 4 keys: 0 = no key of the group accessed yet, &gt; 0 =
 * the timestamp of all four keys (aligned 4- and 8-byte accesses move whole groups, so a group's keys share a
 * timestamp), &lt; 0 = the group is split and its four keys' timestamps (0 = never) are in a side table
 * ({@code split}, entry -e-1); a split group whose keys come to share a timestamp again is joined and its entry
 * reused. Results are exactly those of one timestamp per key.
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
    /** log2 of the keys per wide group (a page of wide groups: see {@link #last}). */
    private static final int WIDE_SHIFT = 3;
    /** Wide groups per page. */
    private static final int WIDE_GROUPS = 1 << (PAGE_SHIFT - WIDE_SHIFT);
    /** Keys per page, less one. */
    private static final int PAGE_MASK = (1 << PAGE_SHIFT) - 1;
    /** log2 of the timestamps per block of the tree. */
    private static final int BLOCK_SHIFT = 5;
    /** Newest blocks whose counts are kept beside the tree (added to it when timestamps move past them). */
    private static final int PENDING = 32;
    /** log2 of the blocks per superblock. */
    private static final int SUPER_SHIFT = 5;
    /** Blocks per superblock (as many as are pending: the pending blocks are one superblock). */
    private static final int SUPER = 1 << SUPER_SHIFT;
    /** Timestamps per block. */
    private static final int BLOCK = 1 << BLOCK_SHIFT;
    /**
     * Most keys that take one timestamp: a count per timestamp is an unsigned byte. An access of more keys (a wide
     * record: x87 state, a vector save, up to 65,535 bytes) takes consecutive timestamps, each for at most this
     * many keys in whole groups, and is remembered as one range ({@link ManyKeyRanges}): an age measured from inside
     * the range counts from its start, so the result is exactly that of one timestamp for all its keys.
     */
    static final int TIMESTAMP_KEYS = 255;
    /** Old blocks whose removals are added up at once ({@link #decBlock}); a power of two. */
    private static final int DEC_WAYS = 4;
    /** Most keys in one access (far more than any trace record holds). */
    public static final int MAX_KEYS = 1 << 24;

    private final PageMap pages = new PageMap();
    /**
     * Per page slot, its group timestamps: {@value #WIDE_GROUPS} words of 8 keys each (a wide page: every access
     * of it so far covered whole aligned groups of 8 keys, as 8-byte data does) or {@value #GROUPS} words of 4 keys
     * each; the array's length tells which. A wide page turns into a page of 4-key groups, each taking its wide
     * group's word, at its first access that covers part of a wide group.
     */
    private int[][] last = new int[4][];
    /** Group words held by all pages. */
    private long groupWords;
    /** Split groups: four key timestamps per entry. */
    private int[] split = new int[4 * 4];
    private int splitUsed;
    private int[] freeSplit = new int[16];
    private int freeCount;
    private int now;
    private int cap;
    /** Keys per most recent timestamp (0..cap + BLOCK - 1), unsigned (at most {@link #TIMESTAMP_KEYS}). */
    private byte[] cnt;
    /**
     * Per block (timestamps 32b..32b+31) before the pending ones, its count, less the removals not yet added up
     * ({@link #decBlock}); the array is rounded up to whole superblocks.
     */
    private int[] bsum;
    private int blocks;
    /** Per superblock of {@value #SUPER} blocks, the sum of its blocks' {@link #bsum} ({@link #supers} of them). */
    private int[] ssum;
    /** Fenwick tree over superblocks (node s + 1 covers superblock s): a few hundred nodes, cache-resident. */
    private int[] sfen;
    private int supers;
    /**
     * The superblock whose tree prefix {@link #fenSum} holds (-1: none): consecutive ages of a sweep over data
     * last touched in order start in the same superblock, so the walk is made once for them; an update of an
     * earlier superblock adjusts the kept sum ({@link #blockAdd}), so it stays exact. A second entry
     * ({@link #fenSb2}) keeps a sweep's prefix while accesses at random distances (a thread's shared data between
     * its sequential private data) walk the tree: with one entry each of them cost the sweep a walk as well.
     */
    private int fenSb = -1;
    /** The tree's sum over the superblocks before {@link #fenSb}. */
    private long fenSum;
    /** The other kept superblock prefix (-1: none), replaced when neither matches (the one not used last). */
    private int fenSb2 = -1;
    /** The tree's sum over the superblocks before {@link #fenSb2}. */
    private long fenSum2;
    /**
     * Removals not yet in the tree (see {@link #dec}): way w holds {@code decAmount[w]} keys removed from block
     * {@code decBlock[w]} (-1: empty). Several ways, because a loop that reuses data at two distances (the
     * matrix multiply's row of A a few hundred accesses back and B's column a whole matrix back) removes from two
     * old blocks in turn: with one way every access updated the tree.
     */
    private final int[] decBlock = new int[DEC_WAYS];
    private final int[] decAmount = new int[DEC_WAYS];
    /** The way the next new block of removals takes (first in, first out). */
    private int decNext;
    private long live;
    /** Renumbering state, kept between renumberings. */
    private final LiveRanks ranks = new LiveRanks();
    /** First of the newest PENDING blocks (a multiple of PENDING), whose sums are in pendSum, not in the tree. */
    private int pendBase;
    private final int[] pendSum = new int[PENDING];
    // The run of equal previous timestamps being removed (pass 2 of an access).
    private int runTs;
    private int run;
    /** The timestamp ranges of accesses of more than {@link #TIMESTAMP_KEYS} keys. */
    private final ManyKeyRanges big = new ManyKeyRanges();
    /**
     * -1: {@link #access} returns exact ages. Otherwise s &ge; 0: it may return any age in the exact age's
     * power-of-two bucket at granularity 2^s ({@link AgeStats#bucket} of age &lt;&lt; s), which lets an age whose
     * timestamp lies in an old block skip counting inside that block when every count the block could add keeps
     * the bucket (see {@link #since}).
     */
    private int bucketShift = -1;
    /** See {@link #touched}. */
    private long touched;

    /** An empty tracker. */
    public AgeTracker() {
        java.util.Arrays.fill(decBlock, -1);
        // small at first, grown by compact(): one tracker per thread, and threads may be thousands
        cap = 1 << 9;
        cnt = new byte[cap + BLOCK];
        sizeBlocks((cap >> BLOCK_SHIFT) + 1);
    }

    /**
     * Lets {@link #access} return any age with the exact one's bucket at granularity 2^{@code shift} (its caller
     * only records buckets); -1 restores exact ages.
     */
    public void bucketsOnly(int shift) {
        bucketShift = shift;
    }

    /**
     * The slot of {@code key}'s page (-1 if the page is new), changing nothing but {@link #touched}: loads that bring
     * the key's group word, the count at the timestamp it holds (which the access reads and decrements) and that
     * timestamp's block sum (which the removal updates when the block is old) into the cache ahead of the key's
     * {@link #access}, which is given the slot so that it makes no page lookup of its own. {@link AccessAge} peeks at
     * a whole run of held accesses first ({@link #peekRun}), so that their cache misses overlap instead of stalling
     * one access after another.
     */
    public int peek(long key) {
        int s = pages.get(key >>> PAGE_SHIFT);
        if (s >= 0) {
            int[] l = last[s];
            int e = l[(int) (key & PAGE_MASK) >>> (l.length == GROUPS ? GROUP_SHIFT : WIDE_SHIFT)];
            touched += e > 0 ? e + cnt[e] + bsum[e >> BLOCK_SHIFT] : e;
        }
        return s;
    }

    /**
     * {@link #peek} for the keys {@code addr[k] >>> shift}, k &lt; n, in two loops: the first loads every key's group
     * word (its page slot into {@code slots[k]}, the word into {@code words[k]}), the second the count and block sum
     * at each word's timestamp. Each loop's loads are independent of each other and its body is short, so more of
     * their cache misses are under way at once than when each count waits for its group word in one loop.
     */
    public void peekRun(long[] addr, int n, int shift, int[] slots, int[] words) {
        PageMap pm = pages;
        int[][] lt = last;
        for (int k = 0; k < n; k++) {
            long key = addr[k] >>> shift;
            int s = pm.get(key >>> PAGE_SHIFT);
            slots[k] = s;
            if (s >= 0) {
                int[] l = lt[s];
                words[k] = l[(int) (key & PAGE_MASK) >>> (l.length == GROUPS ? GROUP_SHIFT : WIDE_SHIFT)];
            } else {
                words[k] = 0;
            }
        }
        byte[] c = cnt;
        int[] bs = bsum;
        long sum = 0;
        for (int k = 0; k < n; k++) {
            int e = words[k];
            if (e > 0) {
                sum += c[e] + bs[e >> BLOCK_SHIFT];
            }
        }
        touched += sum;
    }

    /** Sum of the words {@link #peek} loaded (kept so that the loads are not optimized away). */
    public long touched() {
        return touched;
    }

    /** Number of key pages allocated (4096 keys each). */
    public int pages() {
        return pages.size();
    }

    /** Bytes of state held (group timestamps, split groups, tree, map). */
    public long footprintBytes() {
        return groupWords * 4 + split.length * 4L + cnt.length + bsum.length * 4L + ssum.length * 8L
                + pages.footprintBytes() + last.length * 8L + ranks.footprintBytes();
    }

    /**
     * An access to keys {@code first..lastKey} inclusive (non-negative). Returns the age in keys, or -1 if
     * infinite.
     */
    public long access(long first, long lastKey) {
        return access(first, lastKey, -1);
    }

    /**
     * {@link #access(long, long)}, given the slot of {@code first}'s page as {@link #peek} returned it (-1: look it
     * up).
     */
    public long access(long first, long lastKey, int firstSlot) {
        if (lastKey - first >= TIMESTAMP_KEYS) {
            return accessMany(first, lastKey);
        }
        if (now + 1 >= cap) {
            compact(1);
        }
        int t = ++now;
        if ((t >> BLOCK_SHIFT) >= pendBase + PENDING) {
            movePending(t);
        }
        if (lastKey - first <= 2 * (1 << WIDE_SHIFT) - 1 && (first & (GROUP - 1)) == 0
                && (lastKey & (GROUP - 1)) == GROUP - 1 && (first >>> PAGE_SHIFT) == (lastKey >>> PAGE_SHIFT)) {
            // The common case, an aligned access of one or two whole groups of one page (4 or 8 keys in a page of
            // 4-key groups, 8 or 16 in a wide page) that share a previous timestamp (or are all new): they move to
            // t in one update; otherwise the general path below.
            boolean wide = (first & ((1 << WIDE_SHIFT) - 1)) == 0
                    && (lastKey & ((1 << WIDE_SHIFT) - 1)) == (1 << WIDE_SHIFT) - 1;
            int s = firstSlot >= 0 ? firstSlot : slot(first >>> PAGE_SHIFT, wide);
            int[] l = last[s];
            int shift = l.length == GROUPS ? GROUP_SHIFT : WIDE_SHIFT;
            int i0 = (int) (first & PAGE_MASK) >>> shift;
            int i1 = (int) (lastKey & PAGE_MASK) >>> shift;
            int e = l[i0];
            int e1 = l[i1];
            if (i1 - i0 <= 1 && (shift == GROUP_SHIFT ? e >= 0 && e1 == e : wide)) {
                int n = (int) (lastKey - first + 1);
                long age;
                if (e1 == e) {
                    if (e == 0) {
                        age = -1;
                        live += n;
                    } else {
                        age = since(e);
                        dec(e, n);
                    }
                } else {
                    // two wide groups accessed last at different times (or one never): 8 keys leave each
                    age = e == 0 || e1 == 0 ? -1 : since(Math.min(e, e1));
                    moveWide(e);
                    moveWide(e1);
                }
                l[i0] = t;
                l[i1] = t;
                cnt[t] += (byte) n;
                pendSum[(t >> BLOCK_SHIFT) - pendBase] += n;
                return age;
            }
        }
        return accessKeys(first, lastKey, t);
    }

    /** The 8 keys of a wide group leave timestamp e (0: they are new). */
    private void moveWide(int e) {
        if (e == 0) {
            live += 1 << WIDE_SHIFT;
        } else {
            dec(e, 1 << WIDE_SHIFT);
        }
    }

    /** The pending blocks enter the tree and the newest PENDING blocks from t's on become pending. */
    private void movePending(int t) {
        for (int i = 0; i < PENDING; i++) {
            blockAdd(pendBase + i, pendSum[i]);
            pendSum[i] = 0;
        }
        pendBase = ((t >> BLOCK_SHIFT) / PENDING) * PENDING;
    }

    /**
     * {@link #access} at timestamp t, the general path (kept apart so that the common path stays small enough to
     * be compiled into its caller): keys in any groups, split or not, new or not.
     */
    private long accessKeys(long first, long lastKey, int t) {
        long g0 = first >>> GROUP_SHIFT;
        long g1 = lastKey >>> GROUP_SHIFT;
        // Pass 1: the oldest previous timestamp among the keys, or a new key.
        int pmin = Integer.MAX_VALUE;
        boolean fresh = false;
        boolean onePg = (g0 >>> GROUPS_SHIFT) == (g1 >>> GROUPS_SHIFT);
        int[] l = null;
        for (long g = g0; g <= g1; g++) {
            if (l == null || (g & (GROUPS - 1)) == 0) {
                int s = slot(g >>> GROUPS_SHIFT, false); // before reading the field: slot() may grow the array
                l = narrow(s);
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
        // Pass 2: move the keys to t, removing runs of equal previous timestamps from their counts; an access of
        // more than TIMESTAMP_KEYS keys moves on to the next timestamp at a group boundary when t is full.
        runTs = 0;
        run = 0;
        int atT = 0;
        l = onePg ? l : null;
        for (long g = g0; g <= g1; g++) {
            if (l == null || (!onePg && (g & (GROUPS - 1)) == 0)) {
                l = last[pages.get(g >>> GROUPS_SHIFT)];
            }
            int gi = (int) (g & (GROUPS - 1));
            int lo = g == g0 ? (int) (first & (GROUP - 1)) : 0;
            int hi = g == g1 ? (int) (lastKey & (GROUP - 1)) : GROUP - 1;
            if (atT + hi - lo + 1 > TIMESTAMP_KEYS) {
                cnt[t] += (byte) atT;
                pendSum[(t >> BLOCK_SHIFT) - pendBase] += atT;
                atT = 0;
                t = ++now;
                if ((t >> BLOCK_SHIFT) >= pendBase + PENDING) {
                    movePending(t);
                }
            }
            atT += hi - lo + 1;
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
        cnt[t] += (byte) atT;
        pendSum[(t >> BLOCK_SHIFT) - pendBase] += atT;
        return age;
    }

    /**
     * An access of more than {@link #TIMESTAMP_KEYS} keys: room for all the timestamps it takes, then the general
     * path, which moves on to a new timestamp whenever one is full; the range it took is remembered so that later
     * ages measured from inside it count from its start.
     */
    private long accessMany(long first, long lastKey) {
        if (lastKey - first >= MAX_KEYS) {
            throw new IllegalArgumentException("access age: more than " + MAX_KEYS + " keys in one access");
        }
        // at most TIMESTAMP_KEYS - 3 keys per timestamp (whole groups of 4), plus one
        int stamps = (int) ((lastKey - first + 1) / (TIMESTAMP_KEYS - 3)) + 2;
        if (now + stamps >= cap) {
            compact(stamps);
        }
        int t = ++now;
        if ((t >> BLOCK_SHIFT) >= pendBase + PENDING) {
            movePending(t);
        }
        long age = accessKeys(first, lastKey, t);
        if (now > t) {
            big.add(t, now);
        }
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
     * Live keys whose most recent access is at or after timestamp {@code p} (before the current access moves any
     * key): the counts from p to the end of its block (later ones are still 0), plus the blocks after p's block.
     */
    private long since(int p) {
        if (big.any()) {
            p = big.rangeStart(p);
        }
        byte[] c = cnt;
        int b = p >> BLOCK_SHIFT;
        int inBlock = 0;
        if (b >= pendBase) {
            // a pending block: its sum is known, so count from the nearer end of the block; later blocks up to
            // now's block (the ones after it are still empty)
            int start = b << BLOCK_SHIFT;
            if (p - start < BLOCK / 2) {
                inBlock = pendSum[b - pendBase];
                for (int i = start; i < p; i++) {
                    inBlock -= c[i] & 0xFF;
                }
            } else {
                for (int i = p, e = start + BLOCK; i < e; i++) {
                    inBlock += c[i] & 0xFF;
                }
            }
            for (int i = b + 1 - pendBase, e = (now >> BLOCK_SHIFT) - pendBase; i <= e; i++) {
                inBlock += pendSum[i];
            }
            return inBlock;
        }
        // the tree lacks only the pending blocks, which lie after b: live counts them
        int k = b + 1;
        int sb = k >> SUPER_SHIFT;
        long base = superPrefix(sb);
        if (bucketShift >= 0) {
            // blocks 0..k-1 hold base..base + ssum[sb] keys (k's superblock's blocks before k: some of it), and the
            // rest of p's block 0..bsum[b], which is at most the sum of b's superblock (sb or the one before; no
            // block of it is pending): when the least and the most age fall into one bucket, so does the age, and
            // p's block sum, a cache line of its own, is not read
            long least = live - base - ssum[sb];
            int lb = AgeStats.bucket(least << bucketShift);
            long most = live - base + ssum[b >> SUPER_SHIFT];
            if (lb == AgeStats.bucket(most << bucketShift)) {
                return most;
            }
            most = live - base + bsum[b];
            if (lb == AgeStats.bucket(most << bucketShift)) {
                return most;
            }
        }
        long rest = live - blockPrefix(k, sb, base);
        if (bucketShift >= 0) {
            // the keys from p to the end of its block number 0..bsum[b] (the tree's count of the block, which may
            // still include removals not yet added up): when both ends fall into one bucket, so does the age
            long most = rest + bsum[b];
            if (AgeStats.bucket(rest << bucketShift) == AgeStats.bucket(most << bucketShift)) {
                return most;
            }
        }
        for (int i = p, e = (b + 1) << BLOCK_SHIFT; i < e; i++) {
            inBlock += c[i] & 0xFF;
        }
        return inBlock + rest;
    }

    /**
     * Removes n keys from timestamp ts. Removals from one old block in a row (a sweep over data last touched in
     * order) are added up and enter the tree as one update when their way is taken by another block
     * ({@link #decBlock}, {@value #DEC_WAYS} ways).
     */
    private void dec(int ts, int n) {
        cnt[ts] -= (byte) n;
        int b = ts >> BLOCK_SHIFT;
        if (b >= pendBase) {
            pendSum[b - pendBase] -= n;
        } else {
            int[] db = decBlock;
            for (int w = 0; w < DEC_WAYS; w++) {
                if (db[w] == b) {
                    decAmount[w] += n;
                    return;
                }
            }
            int w = decNext;
            decNext = (w + 1) & (DEC_WAYS - 1);
            if (decAmount[w] != 0) {
                blockAdd(db[w], -decAmount[w]);
            }
            db[w] = b;
            decAmount[w] = n;
        }
    }

    /** Adds d to block b's count, its superblock's and the superblock tree's. */
    private void blockAdd(int b, int d) {
        if (d == 0) {
            return;
        }
        bsum[b] += d;
        int sb = b >> SUPER_SHIFT;
        ssum[sb] += d;
        for (int i = sb + 1; i <= supers; i += i & -i) {
            sfen[i] += d;
        }
        if (sb < fenSb) {
            fenSum += d;
        }
        if (sb < fenSb2) {
            fenSum2 += d;
        }
    }

    /**
     * Sum of the counts of the superblocks before superblock {@code sb} (one walk of a tree of a few hundred nodes),
     * less the removals not yet added up when their block lies there.
     */
    private long superPrefix(int sb) {
        long s;
        if (sb == fenSb) {
            s = fenSum;
        } else if (sb == fenSb2) {
            // the entry used last comes first
            s = fenSum2;
            fenSb2 = fenSb;
            fenSum2 = fenSum;
            fenSb = sb;
            fenSum = s;
        } else {
            s = 0;
            for (int i = sb; i > 0; i -= i & -i) {
                s += sfen[i];
            }
            fenSb2 = fenSb;
            fenSum2 = fenSum;
            fenSb = sb;
            fenSum = s;
        }
        int from = sb << SUPER_SHIFT;
        for (int w = 0; w < DEC_WAYS; w++) {
            if (decBlock[w] < from) {
                s -= decAmount[w];
            }
        }
        return s;
    }

    /**
     * Sum of the counts of blocks 0..k-1, given {@code base} = {@link #superPrefix}(sb) for k's superblock sb:
     * base plus sb's blocks before k, counted from the nearer end of sb (at most 16 block sums, one or two cache
     * lines), less the removals not yet added up when their block lies in sb before k.
     */
    private long blockPrefix(int k, int sb, long base) {
        int from = sb << SUPER_SHIFT;
        int[] bs = bsum;
        long s = base;
        if (k - from <= SUPER / 2) {
            for (int j = from; j < k; j++) {
                s += bs[j];
            }
        } else {
            s += ssum[sb];
            for (int j = k, e = from + SUPER; j < e; j++) {
                s -= bs[j];
            }
        }
        for (int w = 0; w < DEC_WAYS; w++) {
            int d = decBlock[w];
            if (d >= from && d < k) {
                s -= decAmount[w];
            }
        }
        return s;
    }

    /** Empty block sums, superblock sums and tree for {@code nb} blocks. */
    private void sizeBlocks(int nb) {
        blocks = nb;
        supers = (nb + SUPER - 1) >> SUPER_SHIFT;
        bsum = new int[(supers + 1) << SUPER_SHIFT];
        ssum = new int[supers + 1];
        sfen = new int[supers + 1];
        fenSb = -1;
        fenSb2 = -1;
    }

    /**
     * The slot of {@code page}, adding it if new: a wide page when {@code wide} (the access covers whole groups of
     * 8 keys), else a page of 4-key groups.
     */
    private int slot(long page, boolean wide) {
        int s = pages.getOrAdd(page);
        if (s == last.length) {
            last = java.util.Arrays.copyOf(last, s * 2);
        }
        if (last[s] == null) {
            last[s] = new int[wide ? WIDE_GROUPS : GROUPS];
            groupWords += last[s].length;
        }
        return s;
    }

    /** Slot s's page as a page of 4-key groups (a wide page turns into one: each group takes its wide group's word). */
    private int[] narrow(int s) {
        int[] w = last[s];
        if (w.length == GROUPS) {
            return w;
        }
        int[] l = new int[GROUPS];
        for (int i = 0; i < WIDE_GROUPS; i++) {
            l[2 * i] = w[i];
            l[2 * i + 1] = w[i];
        }
        last[s] = l;
        groupWords += GROUPS - WIDE_GROUPS;
        return l;
    }

    /**
     * Renumbers live timestamps 1..live in order and rebuilds the tree, growing it until live + {@code room}
     * timestamps fill at most half of it. The counts move down in place (a live timestamp's new number is never
     * above its old one); a new array is made only when the capacity grows.
     */
    private void compact(int room) {
        byte[] c = cnt;
        int liveTs = ranks.mark(c, now, cap);
        for (int s = 0; s < pages.size(); s++) {
            int[] l = last[s];
            for (int i = 0; i < l.length; i++) {
                if (l[i] > 0) {
                    l[i] = rank(l[i]);
                }
            }
        }
        for (int i = 0, e = splitUsed << GROUP_SHIFT; i < e; i++) {
            if (split[i] != 0) {
                split[i] = rank(split[i]);
            }
        }
        big.renumber(c, ranks);
        int newCap = cap;
        long keys = (long) pages.size() << PAGE_SHIFT;
        while ((liveTs + (long) room) * 2L > newCap || (newCap < keys / 8 && newCap < (1 << 29))) {
            if (newCap > (1 << 29)) {
                throw new IllegalStateException("access age: more than 2^28 live timestamps");
            }
            newCap *= 2;
        }
        byte[] nc = newCap == cap ? c : new byte[newCap + BLOCK];
        ranks.pack(c, now, nc);
        if (nc == c) {
            java.util.Arrays.fill(c, liveTs + 1, now + 1, (byte) 0);
        }
        sizeBlocks((newCap >> BLOCK_SHIFT) + 1);
        int newBase = ((liveTs >> BLOCK_SHIFT) / PENDING) * PENDING;
        java.util.Arrays.fill(pendSum, 0);
        for (int t = 1; t <= liveTs; t++) {
            int b = t >> BLOCK_SHIFT;
            if (b >= newBase) {
                pendSum[b - newBase] += nc[t] & 0xFF;
            } else {
                bsum[b] += nc[t] & 0xFF;
            }
        }
        for (int b = 0; b < newBase; b++) {
            ssum[b >> SUPER_SHIFT] += bsum[b];
        }
        for (int i = 1; i <= supers; i++) {
            sfen[i] += ssum[i - 1];
            int j = i + (i & -i);
            if (j <= supers) {
                sfen[j] += sfen[i];
            }
        }
        cnt = nc;
        // the sums were rebuilt from the exact counts: no removal is pending
        java.util.Arrays.fill(decBlock, -1);
        java.util.Arrays.fill(decAmount, 0);
        cap = newCap;
        now = liveTs;
        pendBase = newBase;
    }

    /** The new number of live timestamp t during {@link #compact}. */
    private int rank(int t) {
        return ranks.rank(t);
    }
}
