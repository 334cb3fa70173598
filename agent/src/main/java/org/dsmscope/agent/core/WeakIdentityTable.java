package org.dsmscope.agent.core;

import java.lang.ref.WeakReference;

/**
 * A concurrent identity-keyed table with weak keys: object → (long value, object attachment). The agent's side
 * table for synthetic addresses and per-object synchronization state (SPEC §3: tag objects without touching
 * them, never change program semantics). Striped locks; open addressing per stripe; entries whose object was
 * collected are dropped when a stripe is rebuilt. No allocation on lookups.
 */
public final class WeakIdentityTable {
    private static final int STRIPES = 64;

    /** One object's entry: a weak reference to it, its value and attachment. */
    public static final class Entry extends WeakReference<Object> {
        private static final java.util.concurrent.atomic.AtomicLongFieldUpdater<Entry> ACQUISITIONS =
                java.util.concurrent.atomic.AtomicLongFieldUpdater.newUpdater(Entry.class, "acquisitions");
        final int hash;
        /** The value (0: none). */
        public long value;
        Object attachment;
        /** Outermost acquisitions of the object as a lock so far ({@link #nextAcquisition}). */
        private volatile long acquisitions;

        Entry(Object o, int hash) {
            super(o);
            this.hash = hash;
        }

        /**
         * The sequence number of a new outermost acquisition of this object as a lock (SPEC §3): 1, 2, … 2^32 - 1,
         * then 1 again (it fills a 32-bit argument in which 0 means "not recorded"). Called while the caller holds
         * the lock, so the numbers follow the order in which the lock was really taken; atomic, because readers of
         * a read-write lock hold it together.
         */
        public long nextAcquisition() {
            return ACQUISITIONS.getAndIncrement(this) % 0xFFFF_FFFFL + 1;
        }
    }

    private static final class Stripe {
        /**
         * Written under the stripe's lock; a rebuild fills a new array and then publishes it, so that
         * {@link #peek} can probe without the lock.
         */
        volatile Entry[] slots = new Entry[64];
        int used;
    }

    private final Stripe[] stripes = new Stripe[STRIPES];

    /** An empty table. */
    public WeakIdentityTable() {
        for (int i = 0; i < STRIPES; i++) {
            stripes[i] = new Stripe();
        }
    }

    private static int mix(int h) {
        return h * 0x9E3779B9;
    }

    private Stripe stripe(int h) {
        return stripes[(mix(h) >>> 26) & (STRIPES - 1)];
    }

    private static Entry find(Stripe s, Object o, int h) {
        return find(s.slots, o, h);
    }

    private static Entry find(Entry[] t, Object o, int h) {
        int mask = t.length - 1;
        int i = mix(h) & mask;
        for (;;) {
            Entry e = t[i];
            if (e == null) {
                return null;
            }
            if (e.hash == h && e.get() == o) {
                return e;
            }
            i = (i + 1) & mask;
        }
    }

    /** The value of {@code o} ({@code h} its identity hash), 0 if absent. */
    public long get(Object o, int h) {
        Stripe s = stripe(h);
        synchronized (s) {
            Entry e = find(s, o, h);
            return e == null ? 0 : e.value;
        }
    }

    /** The entry of {@code o} with its value set to {@code value} unless it had one (created if absent). */
    public Entry entry(Object o, int h, long value) {
        Stripe s = stripe(h);
        synchronized (s) {
            Entry e = find(s, o, h);
            if (e == null) {
                e = insert(s, o, h);
            }
            if (e.value == 0) {
                e.value = value;
            }
            return e;
        }
    }

    /**
     * The entry of {@code o} if it has one with a value, found without the stripe's lock; null otherwise (absent,
     * being inserted, or its value not yet visible): the caller then takes the locked path ({@link #entry}). Safe
     * without the lock because entries are only added to a stripe's array (into empty slots, the array at most half
     * full, so a probe ends), a rebuild publishes a new array, and an entry's hash is final.
     */
    public Entry peek(Object o, int h) {
        Entry e = find(stripe(h).slots, o, h);
        return e != null && e.value != 0 ? e : null;
    }

    /** The entry of {@code o}, null if absent. */
    public Entry entry(Object o, int h) {
        Stripe s = stripe(h);
        synchronized (s) {
            return find(s, o, h);
        }
    }

    /** Sets the value of {@code o} unless it has one; returns the value it has afterwards. */
    public long putIfAbsent(Object o, int h, long value) {
        Stripe s = stripe(h);
        synchronized (s) {
            Entry e = find(s, o, h);
            if (e == null) {
                e = insert(s, o, h);
            }
            if (e.value == 0) {
                e.value = value;
            }
            return e.value;
        }
    }

    /** The attachment of {@code o}, created by {@code factory} if absent. */
    public Object attachment(Object o, java.util.function.Supplier<Object> factory) {
        int h = System.identityHashCode(o);
        Stripe s = stripe(h);
        synchronized (s) {
            Entry e = find(s, o, h);
            if (e == null) {
                e = insert(s, o, h);
            }
            if (e.attachment == null) {
                e.attachment = factory.get();
            }
            return e.attachment;
        }
    }

    private static Entry insert(Stripe s, Object o, int h) {
        if (2 * (s.used + 1) > s.slots.length) {
            rebuild(s);
        }
        Entry e = new Entry(o, h);
        Entry[] t = s.slots;
        int mask = t.length - 1;
        int i = mix(h) & mask;
        while (t[i] != null) {
            i = (i + 1) & mask;
        }
        t[i] = e;
        s.used++;
        return e;
    }

    private static void rebuild(Stripe s) {
        int live = 0;
        for (Entry e : s.slots) {
            if (e != null && e.get() != null) {
                live++;
            }
        }
        int cap = s.slots.length;
        while (4 * (live + 1) > cap) {
            cap *= 2;
        }
        Entry[] old = s.slots;
        Entry[] t = new Entry[cap];
        int mask = cap - 1;
        for (Entry e : old) {
            if (e != null && e.get() != null) {
                int i = mix(e.hash) & mask;
                while (t[i] != null) {
                    i = (i + 1) & mask;
                }
                t[i] = e;
            }
        }
        s.slots = t;
        s.used = live;
    }
}
