package org.dsmscope.ciat.table;

import org.dsmscope.replay.WorkProfile;

/**
 * Which partition of a partitioned CIAT run keeps each 4 KiB page (SPEC §4 "per-address analyses run in parallel
 * partitions"; module README "Balanced plan"): a page private to one thread (as the {@link WorkProfile} saw it) goes
 * to the partition its thread's owner array names, every other page to the owner of its slot (page number mod the
 * slot array's length, a power of two). Private pages below 2^20 (addresses below 4 GiB) are found in a two-level
 * direct table (a leaf of 1,024 owners for each 4 MiB of address space that holds one; a page of no leaf is its
 * slot's), the others in the profile's hash table, so a lookup is a few loads and allocates nothing. Immutable: the
 * router threads and the partitions share one.
 */
public final class PageOwners {
    private static final int LEAF_BITS = 10;
    /** Pages below this are looked up in {@link #direct}. */
    private static final long DIRECT_PAGES = 1L << 20;

    private final short[] slots;
    /** Owners of the pages of each leaf that holds a private page (null leaf: every page is its slot's). */
    private final short[][] direct;
    /** The profile to ask for private pages at or above {@link #DIRECT_PAGES}, or null when there are none. */
    private final WorkProfile hashed;
    private final int[] threadOwner;

    private PageOwners(short[] slots, short[][] direct, WorkProfile hashed, int[] threadOwner) {
        if (Integer.bitCount(slots.length) != 1) {
            throw new IllegalArgumentException("slot owners: " + slots.length + ", not a power of two");
        }
        this.slots = slots;
        this.direct = direct;
        this.hashed = hashed;
        this.threadOwner = threadOwner;
    }

    /** Every page to the owner of its slot ({@code slotOwners}, whose length is a power of two). */
    public static PageOwners ofSlots(short[] slotOwners) {
        return new PageOwners(slotOwners.clone(), null, null, null);
    }

    /**
     * The private pages of {@code profile} to {@code threadOwner} of their thread, every other page to the owner of
     * its slot ({@code slotOwners}).
     */
    public static PageOwners of(short[] slotOwners, WorkProfile profile, int[] threadOwner) {
        short[] slots = slotOwners.clone();
        if (profile == null || profile.privatePages() == 0) {
            return new PageOwners(slots, null, null, null);
        }
        int[] owner = threadOwner.clone();
        short[][] direct = new short[(int) (DIRECT_PAGES >>> LEAF_BITS)][];
        boolean[] above = new boolean[1];
        profile.forEachPrivatePage((page, t) -> {
            if (page >= DIRECT_PAGES) {
                above[0] = true;
                return;
            }
            int l = (int) (page >>> LEAF_BITS);
            short[] leaf = direct[l];
            if (leaf == null) {
                leaf = direct[l] = new short[1 << LEAF_BITS];
                long first = (long) l << LEAF_BITS;
                for (int i = 0; i < leaf.length; i++) {
                    leaf[i] = slots[(int) (first + i) & (slots.length - 1)];
                }
            }
            leaf[(int) page & ((1 << LEAF_BITS) - 1)] = (short) owner[t];
        });
        return new PageOwners(slots, direct, above[0] ? profile : null, owner);
    }

    /** The partition that keeps 4 KiB page {@code page}. */
    public int owner(long page) {
        if (direct != null && page < DIRECT_PAGES) {
            short[] leaf = direct[(int) (page >>> LEAF_BITS)];
            if (leaf != null) {
                return leaf[(int) page & ((1 << LEAF_BITS) - 1)];
            }
        } else if (hashed != null) {
            int t = hashed.privateThread(page);
            if (t >= 0) {
                return threadOwner[t];
            }
        }
        return slots[(int) page & (slots.length - 1)];
    }

    /** True if some page goes elsewhere than its slot's owner says (private pages). */
    public boolean byPage() {
        return direct != null;
    }
}
