package org.dsmscope.agent.core;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.dsmscope.trace.sidecar.DataMap;
import org.dsmscope.trace.sidecar.SymbolFile;

/**
 * The agent's sidecars beside a trace set (SPEC §2), written with the trace module's writers in its documented
 * formats: the symbol file {@code NAME.p.symbols} ("dsmscope-symbols 1": code ranges → class, method, source
 * lines, memory-access offsets) and the data map {@code NAME.p.datamap} ("dsmscope-datamap 1": data ranges →
 * kind, type, allocation site; field and array layouts).
 *
 * <p>Symbols are collected in memory as classes load (one small entry per method) and written at the end of the
 * run; data map rows stream to the file while the program runs ({@link TraceRuntime} batches object rows per
 * thread). Writers are not thread-safe: every call holds this class's monitor.
 */
public final class Sidecars {
    /** A method's symbol entry. */
    private static final class Method {
        final long lo;
        final long hi;
        final String key;
        final String source;
        final int[] lines;
        final int[] mem;

        Method(long lo, long hi, String key, String source, int[] lines, int[] mem) {
            this.lo = lo;
            this.hi = hi;
            this.key = key;
            this.source = source;
            this.lines = lines;
            this.mem = mem;
        }
    }

    private static final List<Method> SYMBOLS = new ArrayList<>();
    private static volatile DataMap.Writer dataMap;

    private Sidecars() {
    }

    /**
     * Records a method's code range [lo, hi): {@code key} is {@code owner/Internal.name+descriptor}, {@code source}
     * its source file (null: unknown), {@code lines} slot:line pairs (slot i = address lo + 4i) and
     * {@code memSlots} the slots of its memory-access instructions; uninstrumented methods have neither.
     */
    public static synchronized void symbol(long lo, long hi, String key, String source, int[] lines,
            int[] memSlots) {
        SYMBOLS.add(new Method(lo, hi, key, source, lines, memSlots));
    }

    /** Writes the symbol file (nothing if no method got a code range). */
    static synchronized void writeSymbols(Path file) {
        if (SYMBOLS.isEmpty()) {
            return;
        }
        try (SymbolFile.Writer w = SymbolFile.writer(file)) {
            for (Method m : SYMBOLS) {
                int paren = m.key.indexOf('(');
                int dot = m.key.lastIndexOf('.', paren);
                w.method(m.lo, m.hi, m.key.substring(0, dot).replace('/', '.'), m.key.substring(dot + 1, paren),
                        m.key.substring(paren), m.source);
                if (m.lines != null) {
                    int lastOff = -1;
                    int lastLine = -1;
                    for (int i = 0; i + 1 < m.lines.length; i += 2) {
                        int off = 4 * m.lines[i];
                        int line = m.lines[i + 1];
                        if (off > lastOff && line != lastLine) {
                            w.line(off, line);
                            lastOff = off;
                            lastLine = line;
                        }
                    }
                }
                if (m.mem != null && m.mem.length > 0) {
                    int[] off = new int[m.mem.length];
                    for (int i = 0; i < off.length; i++) {
                        off[i] = 4 * m.mem[i];
                    }
                    w.accesses(off);
                }
            }
        } catch (IOException | RuntimeException e) {
            TraceRuntime.warn("cannot write symbols " + file + ": " + e.getMessage());
        }
    }

    /** Opens the data map being written while the program runs; its first row is the code region. */
    static synchronized void openDataMap(Path file) throws IOException {
        dataMap = DataMap.writer(file);
        dataMap.range(Addresses.CODE_BASE, Addresses.CODE_LIMIT, "region", "code", "-", "-");
    }

    /** True while the data map is being written. */
    static boolean dataMapOpen() {
        return dataMap != null;
    }

    /**
     * A batch of objects: [addr[i], addr[i] + size[i]) of class type[i], allocated at site[i] (null: unknown). A site
     * {@code NAME\nSITE} also names the object ({@code ArrayBlockingQueue.items}: the field a JDK array is stored
     * in, {@code instrument.JdkRewrite}).
     */
    static synchronized void objects(long[] addr, long[] size, Class<?>[] type, String[] site, int n) {
        try {
            if (dataMap != null) {
                for (int i = 0; i < n; i++) {
                    if (type[i] == null) {
                        continue; // a still-running thread's half-written entry at shutdown
                    }
                    String where = site[i];
                    int cut = where == null ? -1 : where.indexOf('\n');
                    dataMap.range(addr[i], addr[i] + size[i], type[i].isArray() ? "array" : "object",
                            type[i].getTypeName(), cut < 0 ? "-" : where.substring(0, cut),
                            cut < 0 ? where : where.substring(cut + 1));
                }
            }
        } catch (IOException | RuntimeException e) {
            lost(e);
        }
    }

    /** The instance layout of {@code type}: its fields (offsets, sizes, names; inherited fields included). */
    static synchronized void layout(String type, List<Object[]> fields) {
        try {
            if (dataMap != null) {
                for (Object[] f : fields) {
                    dataMap.field(type, (Integer) f[0], (Integer) f[1], (String) f[2]);
                }
            }
        } catch (IOException | RuntimeException e) {
            lost(e);
        }
    }

    /** The element layout of arrays of {@code type}: element i at the array's address + base + i × scale. */
    static synchronized void arrayLayout(String type, int base, int scale) {
        try {
            if (dataMap != null) {
                dataMap.array(type, base, scale);
            }
        } catch (IOException | RuntimeException e) {
            lost(e);
        }
    }

    /**
     * A class's static block at [addr, addr + size) with its static fields ({offset, size, name}); the range's type
     * is {@code static CLASS}, so its fields never mix with the instance layout of CLASS.
     */
    static synchronized void statics(long addr, long size, String cls, List<Object[]> fields) {
        try {
            if (dataMap != null) {
                if (size > 0) {
                    dataMap.range(addr, addr + size, "statics", "static " + cls, "-", "-");
                }
                for (Object[] f : fields) {
                    dataMap.field("static " + cls, (Integer) f[0], (Integer) f[1], (String) f[2]);
                }
            }
        } catch (IOException | RuntimeException e) {
            lost(e);
        }
    }

    /** Finishes the data map. */
    static synchronized void closeDataMap() throws IOException {
        DataMap.Writer w = dataMap;
        dataMap = null;
        if (w != null) {
            w.close();
        }
    }

    private static void lost(Exception e) {
        TraceRuntime.warn("cannot write the data map: " + e.getMessage() + "; it stops here");
        try {
            dataMap.close();
        } catch (IOException | RuntimeException x) {
            // already failing
        }
        dataMap = null;
    }
}
