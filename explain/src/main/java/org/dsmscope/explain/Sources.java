package org.dsmscope.explain;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.dsmscope.trace.sidecar.DataMap;
import org.dsmscope.trace.sidecar.SymbolFile;

/**
 * Source terms for faults (SPEC §8, issue 26): data structures from the data map (Java type, or type and field,
 * with the allocation site), source lines from the symbol file ({@code Sor.java:41}, level 3 only). Without a
 * sidecar, addresses and page (line) numbers, and {@link #notes} says so.
 */
public final class Sources {
    private final DataMap data;
    private final SymbolFile symbols;
    private final FaultTrace trace;
    private final Map<Long, String> siteCache = new HashMap<>();
    private final Map<Integer, String> rangeCache = new HashMap<>();
    private final Map<Long, String> unitCache = new HashMap<>();
    private final List<String> notes = new ArrayList<>();
    private final boolean imported;

    /**
     * Terms for {@code trace} from {@code data} and {@code symbols} (each may be null: missing sidecar);
     * {@code imported} true when the faults come from a fault trace made elsewhere.
     */
    public Sources(FaultTrace trace, DataMap data, SymbolFile symbols, boolean imported) {
        this.trace = trace;
        this.data = data;
        this.symbols = symbols;
        this.imported = imported;
        if (!imported) {
            if (data == null && symbols == null) {
                notes.add("no data map and no symbol file (an imported or generated trace): data structures are "
                        + trace.unitName() + "s and sites are code addresses");
            } else if (data == null) {
                notes.add("no data map: data structures are " + trace.unitName() + "s");
            } else if (symbols == null) {
                notes.add("no symbol file (a level-2 trace): source lines need a level-3 trace (dsmscope trace"
                        + " --level 3); data structures only");
            }
        }
    }

    /** What the report should say about missing sidecars (empty when both were there). */
    public List<String> notes() {
        return notes;
    }

    /** True when sites are source lines (a symbol file), or the sites a fault trace made elsewhere names. */
    public boolean hasLines() {
        return symbols != null || imported;
    }

    /** The data map, or null. */
    public DataMap dataMap() {
        return data;
    }

    /** The source site of fault {@code f}: {@code File.java:123}, a name from the trace, a code address or "-". */
    public String site(int f) {
        long s = trace.site[f];
        if (s == -1) {
            return "-";
        }
        if (s < -1) {
            return trace.siteNames.get((int) (-2 - s));
        }
        return siteCache.computeIfAbsent(s, this::codeSite);
    }

    private String codeSite(long pc) {
        if (symbols != null) {
            int m = symbols.methodAt(pc);
            if (m >= 0) {
                int line = symbols.lineAt(pc);
                String file = symbols.sourceFile(m);
                if (line >= 0 && file != null && !file.equals("-")) {
                    return file + ":" + line;
                }
                return simple(symbols.className(m)) + "." + symbols.methodName(m);
            }
        }
        return "0x" + Long.toHexString(pc);
    }

    private static String simple(String cls) {
        return cls == null ? "?" : cls.substring(cls.lastIndexOf('.') + 1);
    }

    /**
     * The data structure fault {@code f} touched: {@code double[] allocated at Sor.run(Sor.java:41)}, {@code static
     * org.x.Main}, a named range with its type ({@code ArrayBlockingQueue.items (java.lang.Object[]) allocated at
     * ...}: the field a JDK array is kept in, traced with {@code --trace-jdk}), or the page (line) when the data map
     * does not know the address.
     */
    public String dataStructure(int f) {
        long a = trace.address[f];
        if (data != null && a >= 0) {
            int i = data.rangeAt(a);
            if (i >= 0) {
                return rangeCache.computeIfAbsent(i, this::rangeName);
            }
        }
        return unitCache.computeIfAbsent(trace.unit[f], u -> trace.unitName() + " 0x" + Long.toHexString(u));
    }

    private String rangeName(int i) {
        String t = data.type(i) != null ? data.type(i) : data.name(i) != null ? data.name(i) : data.kind(i);
        if (data.name(i) != null && data.type(i) != null) {
            t = data.name(i) + " (" + data.type(i) + ")";
        }
        String site = data.site(i);
        return site == null || site.equals("-") ? t : t + " allocated at " + site;
    }

    /**
     * What fault f accessed, for false sharing: the field or element with its offset in the object ({@code
     * org.x.Counter.hits at offset 12}, from the data map or as the fault trace names it), else its address, else
     * its bytes in the unit.
     */
    public String access(int f) {
        String d = trace.dataName(f);
        if (d != null) {
            return d;
        }
        long a = trace.address[f];
        if (a < 0) {
            return trace.offset[f] < 0 ? "-" : "bytes " + trace.offset[f] + ".." + (trace.offset[f] + trace.size[f]
                    - 1) + " of the " + trace.unitName();
        }
        int i = data == null ? -1 : data.rangeAt(a);
        return describe(a) + (i < 0 ? "" : " at offset " + (a - data.start(i)));
    }

    /** The data at {@code address} as a fault trace's DATA field: {@code NAME@OFFSET}, or null outside the map. */
    static String dataToken(DataMap data, long address) {
        int i = data.rangeAt(address);
        String d = i < 0 ? null : data.describe(address);
        return d == null ? null : d + "@" + (address - data.start(i));
    }

    /** The field, array element or address of byte {@code address}: {@code org.x.Counter.hits}, {@code long[3]}. */
    public String describe(long address) {
        String d = data == null ? null : data.describe(address);
        return d != null ? d : "0x" + Long.toHexString(address);
    }
}
