package org.dsmscope.viewer.model;

import java.util.Arrays;

/**
 * A growing time index (the "time index" of Jumpshot-style level-of-detail, seed 002 §4.3's views of a running
 * program): keys (times) in order with an id each and optional prefix sums of two amounts. Items are appended in
 * any order and {@link #settle} sorts only the new ones and merges them into the tail, from the first settled key
 * greater than the smallest new key on, so that a live run whose items arrive nearly in time order costs amortised
 * O(new items) per update; ties keep insertion order (stable), so the run equals one built from all items at once.
 */
final class SortedRun {
    private long[] keys;
    private int[] ids;
    private long[] a, b;
    /** Prefix sums of the amounts: {@code cumA[i]} = sum of a over positions 0..i-1 (null without amounts). */
    private long[] cumA, cumB;
    private int n;
    private int settled;

    /** An empty run; with {@code sums}, it keeps prefix sums of two amounts per item. */
    SortedRun(int capacity, boolean sums) {
        int c = Math.max(4, capacity);
        keys = new long[c];
        ids = new int[c];
        if (sums) {
            a = new long[c];
            b = new long[c];
            cumA = new long[c + 1];
            cumB = new long[c + 1];
        }
    }

    /** Appends an item (visible after {@link #settle}). */
    void add(long key, int id, long amountA, long amountB) {
        if (n == keys.length) {
            int c = n * 2;
            keys = Arrays.copyOf(keys, c);
            ids = Arrays.copyOf(ids, c);
            if (a != null) {
                a = Arrays.copyOf(a, c);
                b = Arrays.copyOf(b, c);
                cumA = Arrays.copyOf(cumA, c + 1);
                cumB = Arrays.copyOf(cumB, c + 1);
            }
        }
        keys[n] = key;
        ids[n] = id;
        if (a != null) {
            a[n] = amountA;
            b[n] = amountB;
        }
        n++;
    }

    /**
     * Sorts the items added since the last call into place and extends the prefix sums; returns the first position
     * that changed (the size when nothing was added).
     */
    int settle() {
        if (settled == n) {
            return n;
        }
        int m = n - settled;
        long[] tailKeys = Arrays.copyOfRange(keys, settled, n);
        int[] idx = Sorts.byKey(tailKeys, m);
        long minNew = tailKeys[idx[0]];
        // the first settled item that must come after a new one: keys equal to minNew stay before (stable)
        int p = upper(keys, 0, settled, minNew);
        int old = settled - p;
        long[] k2 = new long[old + m];
        int[] i2 = new int[old + m];
        long[] a2 = a == null ? null : new long[old + m], b2 = a == null ? null : new long[old + m];
        int i = p, j = 0, o = 0;
        while (i < settled || j < m) {
            boolean takeOld = j == m || i < settled && keys[i] <= tailKeys[idx[j]];
            int from = takeOld ? i++ : settled + idx[j++];
            k2[o] = keys[from];
            i2[o] = ids[from];
            if (a2 != null) {
                a2[o] = a[from];
                b2[o] = b[from];
            }
            o++;
        }
        System.arraycopy(k2, 0, keys, p, o);
        System.arraycopy(i2, 0, ids, p, o);
        if (a2 != null) {
            System.arraycopy(a2, 0, a, p, o);
            System.arraycopy(b2, 0, b, p, o);
            for (int k = p; k < n; k++) {
                cumA[k + 1] = cumA[k] + a[k];
                cumB[k + 1] = cumB[k] + b[k];
            }
        }
        settled = n;
        return p;
    }

    /** Number of items added, settled or not. */
    int added() {
        return n;
    }

    /** Number of settled items. */
    int size() {
        return settled;
    }

    /** Key at position {@code i}. */
    long key(int i) {
        return keys[i];
    }

    /** Id at position {@code i}. */
    int id(int i) {
        return ids[i];
    }

    /** Amount b of the item at position {@code i}. */
    long amountB(int i) {
        return b[i];
    }

    /** Sum of amount a over positions [lo, hi). */
    long sumA(int lo, int hi) {
        return cumA[hi] - cumA[lo];
    }

    /** Sum of amount b over positions [lo, hi). */
    long sumB(int lo, int hi) {
        return cumB[hi] - cumB[lo];
    }

    /** First position in [lo, hi) whose key is at least {@code t}. */
    int lower(int lo, int hi, long t) {
        return Index.lower(keys, lo, hi, t);
    }

    /** First position of the whole run whose key is at least {@code t}. */
    int lower(long t) {
        return Index.lower(keys, 0, settled, t);
    }

    /** First position of the whole run whose key is greater than {@code t}. */
    int upper(long t) {
        return upper(keys, 0, settled, t);
    }

    /** First index in {@code k[lo..hi)} whose value is greater than {@code t}. */
    static int upper(long[] k, int lo, int hi, long t) {
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (k[mid] <= t) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo;
    }
}
