package org.dsmscope.agent.core;

import java.util.concurrent.atomic.AtomicLong;

/**
 * The synthetic address space of a traced JVM (SPEC §3): code from {@link #CODE_BASE} below 256 MiB (each method a
 * range, each bytecode instruction a 4-byte slot), class statics from {@link #STATIC_BASE}, the heap from
 * {@link #HEAP_BASE}. Objects get addresses from a bump allocator in allocation order (or on first access when
 * allocated before tracing or by untraced code), sized as HotSpot lays them out ({@link Layouts}); an object keeps
 * its address for the run and no two objects overlap. Every assignment is written to the data map sidecar.
 */
public final class Addresses {
    /** First code address. */
    public static final long CODE_BASE = 0x1000;
    /** End of the code region (256 MiB, the reach of a branch record's 28-bit field). */
    public static final long CODE_LIMIT = 0x1000_0000L;
    /** First address of class static blocks. */
    public static final long STATIC_BASE = 0x1000_0000L;
    /** First heap address. */
    public static final long HEAP_BASE = 0x2000_0000L;

    private static final AtomicLong HEAP_TOP = new AtomicLong(HEAP_BASE);
    private static final AtomicLong STATIC_TOP = new AtomicLong(STATIC_BASE);
    private static final WeakIdentityTable TABLE = new WeakIdentityTable();
    /** Per-object synchronization state (sequence numbers) and file handles. */
    public static final WeakIdentityTable STATE = new WeakIdentityTable();

    private Addresses() {
    }

    /**
     * The synthetic address of {@code o} (non-null), assigned on first use. The per-thread cache holds the side
     * table's entries, which reference their objects weakly, so caching never keeps an object alive.
     */
    public static long of(Object o, ThreadTrace t) {
        return entry(o, t).value;
    }

    /**
     * The side-table entry of {@code o} (non-null), its address assigned on first use: {@link #of(Object,
     * ThreadTrace)} and, for a lock, the sequence number of its next acquisition
     * ({@link WeakIdentityTable.Entry#nextAcquisition}).
     */
    public static WeakIdentityTable.Entry entry(Object o, ThreadTrace t) {
        int h = System.identityHashCode(o);
        WeakIdentityTable.Entry[] cache = t.cache;
        int i = h & (ThreadTrace.CACHE - 1);
        if (cache != null) {
            WeakIdentityTable.Entry e = cache[i];
            if (e != null && e.get() == o) {
                return e;
            }
            e = cache[i ^ 1];
            if (e != null && e.get() == o) {
                return e;
            }
        }
        WeakIdentityTable.Entry e = TABLE.peek(o, h);
        if (e == null) {
            e = TABLE.entry(o, h);
            if (e == null || e.value == 0) {
                e = assign(o, h, t, "-");
            }
        }
        if (cache != null) {
            cache(cache, i, e);
        }
        return e;
    }

    /** Puts an entry in slot i of a thread's two-way cache, the slot's previous entry moving to its pair. */
    private static void cache(WeakIdentityTable.Entry[] cache, int i, WeakIdentityTable.Entry e) {
        cache[i ^ 1] = cache[i];
        cache[i] = e;
    }

    /** The address of {@code o} from any thread (no cache). */
    public static long of(Object o) {
        return of(o, ThreadTrace.UNTRACED);
    }

    /** Gives a freshly allocated object its address (allocation order); {@code site} names the allocation site. */
    public static void allocated(Object o, ThreadTrace t, String site) {
        int h = System.identityHashCode(o);
        WeakIdentityTable.Entry e = TABLE.entry(o, h);
        if (e == null || e.value == 0) {
            e = assign(o, h, t, site);
            if (t.cache != null) {
                cache(t.cache, h & (ThreadTrace.CACHE - 1), e);
            }
        }
    }

    private static WeakIdentityTable.Entry assign(Object o, int h, ThreadTrace t, String site) {
        boolean was = TraceRuntime.enterAgent();
        try {
            long size = Layouts.sizeOf(o);
            long mine = HEAP_TOP.getAndAdd(size);
            WeakIdentityTable.Entry e = TABLE.entry(o, h, mine);
            if (e.value == mine) {
                TraceRuntime.object(t, mine, size, o.getClass(), site);
            }
            return e;
        } finally {
            TraceRuntime.leaveAgent(was);
        }
    }

    /** The address of a class's static block (assigned on first use), {@code size} bytes long. */
    public static long staticBlock(Class<?> c, long size) {
        boolean was = TraceRuntime.enterAgent();
        try {
            return staticBlockOf(c, size);
        } finally {
            TraceRuntime.leaveAgent(was);
        }
    }

    private static long staticBlockOf(Class<?> c, long size) {
        long[] b = Layouts.staticBlock(c);
        synchronized (b) {
            if (b[0] == 0) {
                b[0] = STATIC_TOP.getAndAdd((size + 7) & ~7L);
                java.util.List<Object[]> fields = new java.util.ArrayList<>();
                for (java.lang.reflect.Field f : c.getDeclaredFields()) {
                    if (java.lang.reflect.Modifier.isStatic(f.getModifiers())) {
                        long[] off = Layouts.staticOffset(f);
                        fields.add(new Object[] {(int) off[0], Layouts.bytesOf(f.getType()), f.getName()});
                    }
                }
                Sidecars.statics(b[0], size, c.getTypeName(), fields);
            }
            return b[0];
        }
    }
}
