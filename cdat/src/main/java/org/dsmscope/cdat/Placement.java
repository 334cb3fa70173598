package org.dsmscope.cdat;

import org.dsmscope.cdat.config.PagePolicy;

/**
 * Maps pages to home nodes (seed 000 §5.1, SPEC §6). RR1: page number mod nodes (with {@code -HPUX}, pages of the
 * private range 0x40000000&ndash;0x7fffffff go to the node that references them first). RR2: RR1, but code pages
 * (pages the memory usage file gives code bytes) are replicated in every node: each node is their home for its own
 * processors. Oracle: code pages replicated, private pages (one thread in the memory usage file) in the node that
 * references them first (the node of their thread for thread traces), shared pages round-robin. 1Touch: the node that
 * references the page first. A page the memory usage file does not list is placed round-robin.
 */
final class Placement {
    /** Page class in {@link #kind}: placed round-robin. */
    private static final byte ROUND_ROBIN = 0;
    /** Replicated in every node. */
    private static final byte REPLICATED = 1;
    /** Placed at its first reference. */
    private static final byte FIRST_TOUCH = 2;

    private final PagePolicy policy;
    private final int nodes;
    private final int pageShift;
    private final boolean hpux;
    private final LongIndex pages = new LongIndex(1024);
    private byte[] kind = new byte[16];
    private int[] node = new int[16];
    private int[] owner = new int[16];

    /** True if the last {@link #home} found a replicated page. */
    boolean replicated;

    Placement(PagePolicy policy, int nodes, int pageShift, boolean hpux) {
        this.policy = policy;
        this.nodes = nodes;
        this.pageShift = pageShift;
        this.hpux = hpux;
    }

    /**
     * Declares what the memory usage file says of page {@code page} (or of part of it, when the file's pages are
     * smaller than the configuration's: call once per part): code bytes, and the one thread that touched it ({@code
     * owner}, -1 if several did). A page is replicated if any part has code; placed at first reference under Oracle
     * if every part listed is private to the same thread; round-robin otherwise.
     */
    void usage(long page, boolean code, int owner) {
        if (policy != PagePolicy.RR2 && policy != PagePolicy.ORACLE) {
            return;
        }
        int id = pages.find(page);
        if (id < 0) {
            id = pages.add(page);
            grow(id + 1);
            kind[id] = policy == PagePolicy.ORACLE && owner >= 0 ? FIRST_TOUCH : ROUND_ROBIN;
            node[id] = -1;
            this.owner[id] = owner;
        } else if (kind[id] == FIRST_TOUCH && (owner < 0 || owner != this.owner[id])) {
            kind[id] = ROUND_ROBIN;
        }
        if (code) {
            kind[id] = REPLICATED;
        }
    }

    private void grow(int n) {
        kind = LongIndex.fit(kind, n);
        node = LongIndex.fit(node, n);
        owner = LongIndex.fit(owner, n);
    }

    private boolean firstTouchByAddress(long page) {
        if (policy == PagePolicy.FIRST_TOUCH) {
            return true;
        }
        if (!hpux) {
            return false;
        }
        long a = page << pageShift;
        return a >= 0x40000000L && a <= 0x7fffffffL;
    }

    /**
     * True if a page's home can depend on which node references it first (1Touch, Oracle's private pages, the
     * {@code -HPUX} private range): then the order of first references across all lines matters.
     */
    boolean dependsOnFirstTouch() {
        return policy == PagePolicy.FIRST_TOUCH || policy == PagePolicy.ORACLE || hpux;
    }

    /** True if a page can be replicated in every node (RR2, Oracle: code pages). */
    boolean replicates() {
        return policy == PagePolicy.RR2 || policy == PagePolicy.ORACLE;
    }

    /** The home node of {@code page} for a reference from {@code from}; sets {@link #replicated}. */
    int home(long page, int from) {
        replicated = false;
        int id = pages.find(page);
        if (id < 0) {
            if (!firstTouchByAddress(page)) {
                return (int) Long.remainderUnsigned(page, nodes);
            }
            id = pages.add(page);
            grow(id + 1);
            kind[id] = FIRST_TOUCH;
            node[id] = -1;
        }
        switch (kind[id]) {
            case REPLICATED:
                replicated = true;
                return from;
            case FIRST_TOUCH:
                if (node[id] < 0) {
                    node[id] = from;
                }
                return node[id];
            default:
                return (int) Long.remainderUnsigned(page, nodes);
        }
    }

    /** Pages placed by first reference so far. */
    int firstTouched() {
        int n = 0;
        for (int i = 0; i < pages.size(); i++) {
            if (kind[i] == FIRST_TOUCH && node[i] >= 0) {
                n++;
            }
        }
        return n;
    }
}
