package org.dsmscope.cdat;

/**
 * Numbers long keys by aligned blocks of {@code 2^bits} keys (the directory's entries, seed 000 §5; cdat/README.md
 * "Speed"): a key's id is its block's number among the blocks met so far, times {@code 2^bits}, plus the key's offset
 * in its block. The keys of one block (neighbouring lines) get neighbouring ids, so per-key state in parallel
 * primitive arrays lies together, and the table of blocks is {@code 2^bits} times smaller than one of keys. Recent
 * blocks are remembered in a small direct-mapped table in front of it, so a run of keys in one block, or keys spread
 * over a few hundred blocks, cost a compare each. Any long is a valid key.
 */
final class BlockIndex {
    private final int bits;
    private final long mask;
    private final LongIndex blocks;
    /** Recent blocks remembered, direct-mapped by their low bits. */
    private static final int RECENT = 256;
    /** Per slot: a recent block (-1: none; no key's block is -1, as bits is at least 1), and its first id. */
    private final long[] recentBlock = new long[RECENT];
    private final int[] recentBase = new int[RECENT];

    /** Blocks of {@code 2^bits} keys ({@code bits} 1..16), room for about {@code expected} keys to start. */
    BlockIndex(int bits, int expected) {
        if (bits < 1 || bits > 16) {
            throw new IllegalArgumentException("bits: " + bits);
        }
        this.bits = bits;
        this.mask = (1L << bits) - 1;
        this.blocks = new LongIndex(Math.max(1, expected >>> bits));
        java.util.Arrays.fill(recentBlock, -1);
    }

    /** The id of {@code key} (its block numbered next if it is new). */
    int id(long key) {
        long b = key >>> bits;
        int r = (int) b & (RECENT - 1);
        if (recentBlock[r] != b) {
            recentBase[r] = add(b);
            recentBlock[r] = b;
        }
        return recentBase[r] | (int) (key & mask);
    }

    /** The first id of block {@code b}, numbered next if new. */
    private int add(long b) {
        int n = blocks.add(b);
        if (n >= Integer.MAX_VALUE >>> bits) {
            throw new IllegalStateException("more than " + (Integer.MAX_VALUE >>> bits) + " blocks of " + (1 << bits)
                    + " keys");
        }
        return n << bits;
    }

    /** One more than the largest id given so far: the blocks met times their size. */
    int capacity() {
        return blocks.size() << bits;
    }
}
