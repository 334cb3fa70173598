package org.dsmscope.agent.core;

/**
 * Per-thread identity map object → hold depth, so that only the outermost acquire and release of a reentrant
 * lock or monitor are recorded (SPEC §3). Open addressing with linear probing and backward-shift deletion; keys
 * are held only while the thread holds the lock. Used by its owning thread only.
 */
public final class DepthMap {
    private Object[] keys = new Object[16];
    private int[] depth = new int[16];
    private int size;

    private int slot(Object o) {
        int mask = keys.length - 1;
        int i = (System.identityHashCode(o) * 0x9E3779B9 >>> 16) & mask;
        while (keys[i] != null && keys[i] != o) {
            i = (i + 1) & mask;
        }
        return i;
    }

    /** Current depth of {@code o} (0 if not held). */
    public int get(Object o) {
        int i = slot(o);
        return keys[i] == null ? 0 : depth[i];
    }

    /** Increments and returns the depth of {@code o}. */
    public int inc(Object o) {
        if (2 * (size + 1) > keys.length) {
            grow();
        }
        int i = slot(o);
        if (keys[i] == null) {
            keys[i] = o;
            depth[i] = 0;
            size++;
        }
        return ++depth[i];
    }

    /** Decrements the depth of {@code o} and returns it (0: released; -1: was not held). */
    public int dec(Object o) {
        int i = slot(o);
        if (keys[i] == null) {
            return -1;
        }
        int d = --depth[i];
        if (d <= 0) {
            remove(i);
            return 0;
        }
        return d;
    }

    /** Sets the depth of {@code o} (0 removes it). */
    public void set(Object o, int d) {
        if (d <= 0) {
            int i = slot(o);
            if (keys[i] != null) {
                remove(i);
            }
            return;
        }
        inc(o);
        depth[slot(o)] = d;
    }

    /**
     * The objects held (depth &gt; 0), in no particular order (a new array; for the rare walk at a thread's end).
     */
    public Object[] held() {
        Object[] out = new Object[size];
        int n = 0;
        for (int i = 0; i < keys.length; i++) {
            if (keys[i] != null && depth[i] > 0) {
                out[n++] = keys[i];
            }
        }
        return n == out.length ? out : java.util.Arrays.copyOf(out, n);
    }

    private void remove(int i) {
        int mask = keys.length - 1;
        keys[i] = null;
        size--;
        int j = i;
        for (;;) {
            j = (j + 1) & mask;
            Object k = keys[j];
            if (k == null) {
                return;
            }
            int home = (System.identityHashCode(k) * 0x9E3779B9 >>> 16) & mask;
            boolean move = i <= j ? (home <= i || home > j) : (home <= i && home > j);
            if (move) {
                keys[i] = k;
                depth[i] = depth[j];
                keys[j] = null;
                i = j;
            }
        }
    }

    private void grow() {
        Object[] ok = keys;
        int[] od = depth;
        keys = new Object[ok.length * 2];
        depth = new int[ok.length * 2];
        size = 0;
        for (int i = 0; i < ok.length; i++) {
            if (ok[i] != null) {
                int s = slot(ok[i]);
                keys[s] = ok[i];
                depth[s] = od[i];
                size++;
            }
        }
    }
}
