package org.dsmscope.agent.core;

import java.util.HashMap;
import java.util.Map;

/**
 * Side table of instrumentation sites (STYLE: instrumented code calls static entry points with an int site id;
 * site metadata lives here, never in the records). Sites are registered while a class is transformed and read
 * by the hooks; per-site resolved values (field offsets, static addresses, call targets) are cached in chunked
 * primitive arrays so the hot path is two array loads.
 */
public final class Sites {
    private static final int BITS = 12;
    private static final int CHUNK = 1 << BITS;
    private static final int CHUNKS = 1 << 14;

    /** Memory type field per site (load/store, size, register type). */
    private static final int[][] TYPE = new int[CHUNKS][];
    /** Resolved value per site: field offset + 1, static field address, call target; 0 = not resolved. */
    private static final long[][] VALUE = new long[CHUNKS][];
    /** Description per site: String[]{owner, name, desc} for fields and calls, String for allocation sites. */
    private static final Object[][] INFO = new Object[CHUNKS][];
    /** Loader of the class that holds a site (static fields and call targets resolve through it). */
    private static int next = 1;

    private static final Map<String, Long> METHODS = new HashMap<>();
    private static long codeTop = Addresses.CODE_BASE;
    private static boolean codeFull;

    private Sites() {
    }

    /** Registers a site and returns its id (0 if the table is full: such sites are left uninstrumented). */
    public static synchronized int register(int type, Object info) {
        int s = next;
        int c = s >>> BITS;
        if (c >= CHUNKS) {
            return 0;
        }
        if (TYPE[c] == null) {
            TYPE[c] = new int[CHUNK];
            VALUE[c] = new long[CHUNK];
            INFO[c] = new Object[CHUNK];
        }
        next++;
        TYPE[c][s & (CHUNK - 1)] = type;
        INFO[c][s & (CHUNK - 1)] = info;
        return s;
    }

    /** The memory type field of a site. */
    public static int type(int site) {
        return TYPE[site >>> BITS][site & (CHUNK - 1)];
    }

    /** The cached resolved value of a site (0 if not resolved yet). */
    public static long value(int site) {
        return VALUE[site >>> BITS][site & (CHUNK - 1)];
    }

    /** Caches the resolved value of a site. */
    public static void setValue(int site, long v) {
        VALUE[site >>> BITS][site & (CHUNK - 1)] = v;
    }

    /** The description of a site. */
    public static Object info(int site) {
        return INFO[site >>> BITS][site & (CHUNK - 1)];
    }

    /**
     * Allocates a code range of {@code slots} 4-byte instruction slots for method {@code key} (owner.name+desc)
     * below 256 MiB (SPEC §2: branch records keep 28 bits); returns its base, or -1 once the space is full.
     */
    public static synchronized long allocateCode(String key, int slots) {
        long size = 4L * Math.max(1, slots) + 4;
        if (codeFull || codeTop + size > Addresses.CODE_LIMIT) {
            codeFull = true;
            return -1;
        }
        long base = codeTop;
        codeTop += size;
        METHODS.putIfAbsent(key, base);
        return base;
    }

    /** The code address of method {@code key}; an uninstrumented method gets a one-slot stub on first use. */
    public static synchronized long methodAddress(String key) {
        Long a = METHODS.get(key);
        if (a != null) {
            return a;
        }
        if (codeFull || codeTop + 8 > Addresses.CODE_LIMIT) {
            return 0;
        }
        long base = codeTop;
        codeTop += 8;
        METHODS.put(key, base);
        Sidecars.symbol(base, base + 4, key, "(uninstrumented)", null, null);
        return base;
    }
}
