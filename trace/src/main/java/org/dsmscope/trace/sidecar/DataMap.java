package org.dsmscope.trace.sidecar;

import java.io.BufferedWriter;
import java.io.Closeable;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The data map sidecar (SPEC §2, §3, §5), format "dsmscope-datamap 1": data address ranges → kind, type, name and
 * allocation site; class field layouts and array layouts, so an address inside an object resolves to its field or
 * element; and the private / shared address ranges that CIAT's range-shared count needs. Beside a trace set
 * {@code NAME.p} it is named {@code NAME.p.datamap}. Text, UTF-8, tab-separated, addresses hex {@code 0x...}:
 *
 * <pre>
 * dsmscope-datamap 1
 * range    START  END  KIND  TYPE  NAME  SITE    [START, END): KIND object|array|statics|stack|region, TYPE a type
 *                                                name (com.x.Node, double[]), NAME a variable or '-', SITE the
 *                                                allocation site (Class.method(File.java:LINE)) or '-'
 * field    CLASS  OFFSET  SIZE  NAME            instances of CLASS hold field NAME at OFFSET (decimal bytes)
 * array    TYPE  BASE  SCALE                    element i of an array of TYPE lies at START + BASE + i*SCALE
 * private  START  END  THREAD                   addresses private to thread THREAD (index in the trace set)
 * shared   START  END                           addresses shared by all threads
 * </pre>
 * Ranges never overlap (objects never do); rows may come in any order; {@code #} starts a comment line.
 */
public final class DataMap {
    /** First line's format name. */
    public static final String FORMAT = "dsmscope-datamap";
    /** Format version written and read. */
    public static final int VERSION = 1;
    /** Thread value of a shared range in {@link #privateThreadAt}. */
    public static final int SHARED = -1;
    /** Thread value of an address in no declared private or shared range. */
    public static final int UNDECLARED = -2;

    private final long[] start;
    private final long[] end;
    private final String[] kind;
    private final String[] type;
    private final String[] name;
    private final String[] site;
    private final Map<String, long[]> fields;
    private final Map<String, String[]> fieldNames;
    private final Map<String, int[]> arrays;
    private final long[] shareStart;
    private final long[] shareEnd;
    private final int[] shareThread;

    private DataMap(Rows r) {
        int[] order = sortedOrder(r.start, r.n);
        int n = order.length;
        start = new long[n];
        end = new long[n];
        kind = new String[n];
        type = new String[n];
        name = new String[n];
        site = new String[n];
        for (int i = 0; i < n; i++) {
            int k = order[i];
            start[i] = r.start[k];
            end[i] = r.end[k];
            kind[i] = r.kind.get(k);
            type[i] = r.type.get(k);
            name[i] = r.name.get(k);
            site[i] = r.site.get(k);
        }
        fields = r.fields;
        fieldNames = r.fieldNames;
        arrays = r.arrays;
        int[] so = sortedOrder(r.shareStart.stream().mapToLong(Long::longValue).toArray(), r.shareStart.size());
        shareStart = new long[so.length];
        shareEnd = new long[so.length];
        shareThread = new int[so.length];
        for (int i = 0; i < so.length; i++) {
            shareStart[i] = r.shareStart.get(so[i]);
            shareEnd[i] = r.shareEnd.get(so[i]);
            shareThread[i] = r.shareThread.get(so[i]);
        }
    }

    /** Indices of {@code starts[0..n)} in ascending order (no sorting when already ascending, the usual case). */
    private static int[] sortedOrder(long[] starts, int n) {
        int[] o = new int[n];
        boolean sorted = true;
        for (int i = 0; i < n; i++) {
            o[i] = i;
            sorted &= i == 0 || starts[i - 1] <= starts[i];
        }
        if (!sorted) {
            Integer[] b = new Integer[n];
            for (int i = 0; i < n; i++) {
                b[i] = i;
            }
            Arrays.sort(b, (x, y) -> Long.compare(starts[x], starts[y]));
            for (int i = 0; i < n; i++) {
                o[i] = b[i];
            }
        }
        return o;
    }

    /** The conventional name beside trace set {@code prefix} ({@code NAME.p}): {@code NAME.p.datamap}. */
    public static Path pathFor(String prefix) {
        return Path.of(prefix + ".datamap");
    }

    /** Reads a data map; bad content gives a {@link org.dsmscope.trace.BadInputException} naming the line. */
    public static DataMap read(Path f) throws IOException {
        SidecarText t = SidecarText.open(f, FORMAT, VERSION);
        Rows r = new Rows();
        Map<String, String> intern = new HashMap<>();
        while (t.next()) {
            switch (t.keyword()) {
                case "range": {
                    t.expect(6, "START END KIND TYPE NAME SITE");
                    long s = t.hex(1);
                    long e = t.hex(2);
                    if (e <= s) {
                        throw t.error("range ends before it starts");
                    }
                    r.add(s, e);
                    r.kind.add(intern(intern, t.text(3)));
                    r.type.add(intern(intern, t.text(4)));
                    r.name.add(intern(intern, t.text(5)));
                    r.site.add(intern(intern, t.text(6)));
                    break;
                }
                case "field": {
                    t.expect(4, "CLASS OFFSET SIZE NAME");
                    String c = t.fields(1);
                    long[] old = r.fields.getOrDefault(c, new long[0]);
                    String[] oldNames = r.fieldNames.getOrDefault(c, new String[0]);
                    long[] nf = Arrays.copyOf(old, old.length + 1);
                    nf[old.length] = ((long) t.dec(2) << 32) | t.dec(3);
                    String[] nn = Arrays.copyOf(oldNames, oldNames.length + 1);
                    nn[oldNames.length] = t.fields(4);
                    r.fields.put(c, nf);
                    r.fieldNames.put(c, nn);
                    break;
                }
                case "array":
                    t.expect(3, "TYPE BASE SCALE");
                    if (t.dec(3) == 0) {
                        throw t.error("array scale must be positive");
                    }
                    r.arrays.put(t.fields(1), new int[] {t.dec(2), t.dec(3)});
                    break;
                case "private":
                    t.expect(3, "START END THREAD");
                    r.share(t, t.hex(1), t.hex(2), t.dec(3));
                    break;
                case "shared":
                    t.expect(2, "START END");
                    r.share(t, t.hex(1), t.hex(2), SHARED);
                    break;
                default:
                    throw t.error("unknown row '" + t.keyword() + "' (expected range, field, array, private or shared)");
            }
        }
        DataMap m = new DataMap(r);
        m.checkDisjoint(f, m.start, m.end, "data ranges");
        m.checkDisjoint(f, m.shareStart, m.shareEnd, "private/shared ranges");
        return m;
    }

    private static String intern(Map<String, String> m, String s) {
        return s == null ? null : m.computeIfAbsent(s, k -> k);
    }

    private void checkDisjoint(Path f, long[] s, long[] e, String what) {
        for (int i = 1; i < s.length; i++) {
            if (s[i] < e[i - 1]) {
                throw new org.dsmscope.trace.BadInputException(f + ": " + what + " overlap at 0x"
                        + Long.toHexString(s[i]));
            }
        }
    }

    private static int find(long[] s, long[] e, long address) {
        int i = Arrays.binarySearch(s, address);
        if (i < 0) {
            i = -i - 2;
        }
        return i >= 0 && address < e[i] ? i : -1;
    }

    /** Number of data ranges. */
    public int size() {
        return start.length;
    }

    /** Index of the data range holding {@code address}, or -1. */
    public int rangeAt(long address) {
        return find(start, end, address);
    }

    /** Start of range {@code i}. */
    public long start(int i) {
        return start[i];
    }

    /** End (exclusive) of range {@code i}. */
    public long end(int i) {
        return end[i];
    }

    /** Kind of range {@code i} (object, array, statics, stack, region), or null. */
    public String kind(int i) {
        return kind[i];
    }

    /** Type name of range {@code i}, or null. */
    public String type(int i) {
        return type[i];
    }

    /** Variable name of range {@code i}, or null. */
    public String name(int i) {
        return name[i];
    }

    /** Allocation site of range {@code i}, or null. */
    public String site(int i) {
        return site[i];
    }

    /** Name of the field of {@code cls} covering byte {@code offset} of an instance, or null. */
    public String fieldAt(String cls, long offset) {
        long[] f = fields.get(cls);
        if (f == null) {
            return null;
        }
        for (int k = 0; k < f.length; k++) {
            long o = f[k] >>> 32;
            long size = f[k] & 0xFFFFFFFFL;
            if (offset >= o && offset < o + Math.max(size, 1)) {
                return fieldNames.get(cls)[k];
            }
        }
        return null;
    }

    /** Element index of byte {@code offset} of an array of {@code arrayType}, or -1 (header or unknown layout). */
    public long elementAt(String arrayType, long offset) {
        int[] a = arrays.get(arrayType);
        if (a == null || offset < a[0]) {
            return -1;
        }
        return (offset - a[0]) / a[1];
    }

    /**
     * What {@code address} is, for reports: {@code TYPE.FIELD}, {@code TYPE[INDEX]}, {@code NAME} or {@code TYPE}
     * with {@code +OFFSET} when nothing finer is known; null outside every range. Allocates (not for hot paths).
     */
    public String describe(long address) {
        int i = rangeAt(address);
        if (i < 0) {
            return null;
        }
        long off = address - start[i];
        String t = type[i] == null ? (name[i] == null ? "?" : name[i]) : type[i];
        if (t.endsWith("]")) {
            long e = elementAt(t, off);
            if (e >= 0) {
                return t.substring(0, t.length() - 1) + e + "]";
            }
        }
        String fld = fieldAt(t, off);
        if (fld != null) {
            return t + "." + fld;
        }
        return t + "+" + off;
    }

    /** The thread {@code address} is private to, {@link #SHARED}, or {@link #UNDECLARED}. */
    public int privateThreadAt(long address) {
        int i = find(shareStart, shareEnd, address);
        return i < 0 ? UNDECLARED : shareThread[i];
    }

    /** Opens a writer of a data map. */
    public static Writer writer(Path f) throws IOException {
        return new Writer(f);
    }

    /** Writes a data map row by row (streaming; one row per allocated object is fine). Not thread-safe. */
    public static final class Writer implements Closeable {
        private final BufferedWriter out;

        private Writer(Path f) throws IOException {
            out = Files.newBufferedWriter(f, StandardCharsets.UTF_8);
            out.write(FORMAT + " " + VERSION + "\n");
        }

        /** A data range [start, end) of {@code kind} (object, array, statics, stack, region). */
        public Writer range(long start, long end, String kind, String type, String name, String site)
                throws IOException {
            if (end <= start) {
                throw new IllegalArgumentException("empty data range");
            }
            out.write("range\t" + SidecarText.hexOut(start) + "\t" + SidecarText.hexOut(end) + "\t"
                    + SidecarText.field(kind) + "\t" + SidecarText.field(type) + "\t" + SidecarText.field(name) + "\t"
                    + SidecarText.field(site) + "\n");
            return this;
        }

        /** Field {@code name} of instances of {@code cls} at byte {@code offset}, {@code size} bytes. */
        public Writer field(String cls, int offset, int size, String name) throws IOException {
            out.write("field\t" + SidecarText.field(cls) + "\t" + offset + "\t" + size + "\t" + SidecarText.field(name)
                    + "\n");
            return this;
        }

        /** Element i of arrays of {@code type} lies at the array's start + {@code base} + i * {@code scale}. */
        public Writer array(String type, int base, int scale) throws IOException {
            if (scale <= 0) {
                throw new IllegalArgumentException("array scale must be positive");
            }
            out.write("array\t" + SidecarText.field(type) + "\t" + base + "\t" + scale + "\n");
            return this;
        }

        /** Addresses [start, end) private to thread {@code thread}. */
        public Writer privateRange(long start, long end, int thread) throws IOException {
            out.write("private\t" + SidecarText.hexOut(start) + "\t" + SidecarText.hexOut(end) + "\t" + thread + "\n");
            return this;
        }

        /** Addresses [start, end) shared by all threads. */
        public Writer sharedRange(long start, long end) throws IOException {
            out.write("shared\t" + SidecarText.hexOut(start) + "\t" + SidecarText.hexOut(end) + "\n");
            return this;
        }

        /** Flushes buffered rows. */
        public void flush() throws IOException {
            out.flush();
        }

        @Override
        public void close() throws IOException {
            out.close();
        }
    }

    private static final class Rows {
        long[] start = new long[64];
        long[] end = new long[64];
        int n;
        final List<String> kind = new ArrayList<>();
        final List<String> type = new ArrayList<>();
        final List<String> name = new ArrayList<>();
        final List<String> site = new ArrayList<>();
        final Map<String, long[]> fields = new HashMap<>();
        final Map<String, String[]> fieldNames = new HashMap<>();
        final Map<String, int[]> arrays = new HashMap<>();
        final List<Long> shareStart = new ArrayList<>();
        final List<Long> shareEnd = new ArrayList<>();
        final List<Integer> shareThread = new ArrayList<>();

        void add(long s, long e) {
            if (n == start.length) {
                start = Arrays.copyOf(start, n * 2);
                end = Arrays.copyOf(end, n * 2);
            }
            start[n] = s;
            end[n++] = e;
        }

        void share(SidecarText t, long s, long e, int thread) {
            if (e <= s) {
                throw t.error("range ends before it starts");
            }
            shareStart.add(s);
            shareEnd.add(e);
            shareThread.add(thread);
        }
    }
}
