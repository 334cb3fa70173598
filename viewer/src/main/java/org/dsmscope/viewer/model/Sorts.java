package org.dsmscope.viewer.model;

/** Index sorts over primitive keys (stable merge sort, no boxing), for the timeline's time indexes. */
final class Sorts {
    private Sorts() {
    }

    /** Indexes 0..n-1 ordered by {@code keys}, equal keys in index order. */
    static int[] byKey(long[] keys, int n) {
        int[] a = new int[n];
        for (int i = 0; i < n; i++) {
            a[i] = i;
        }
        int[] b = new int[n];
        for (int width = 1; width < n; width *= 2) {
            for (int lo = 0; lo < n; lo += 2 * width) {
                int mid = Math.min(lo + width, n), hi = Math.min(lo + 2 * width, n);
                int i = lo, j = mid, k = lo;
                if (mid >= hi || keys[a[mid - 1]] <= keys[a[mid]]) {
                    System.arraycopy(a, lo, b, lo, hi - lo);
                    continue;
                }
                while (i < mid && j < hi) {
                    b[k++] = keys[a[j]] < keys[a[i]] ? a[j++] : a[i++];
                }
                while (i < mid) {
                    b[k++] = a[i++];
                }
                while (j < hi) {
                    b[k++] = a[j++];
                }
            }
            int[] t = a;
            a = b;
            b = t;
        }
        return a;
    }
}
