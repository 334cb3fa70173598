package org.dsmscope.trace.sidecar;

import java.io.BufferedWriter;
import java.io.Closeable;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;

/**
 * The symbol sidecar (SPEC §2), format "dsmscope-symbols 1": code address ranges → class, method, source file,
 * source lines, and the offsets of the memory-access instructions, so that results can be given per source line
 * and the instruction stream rebuilt exactly from branch records (seed 000 §3). Beside a trace set
 * {@code NAME.p} it is named {@code NAME.p.symbols}. Text, UTF-8, tab-separated:
 *
 * <pre>
 * dsmscope-symbols 1
 * method  START  END  CLASS  NAME  DESCRIPTOR  SOURCE_FILE     code range [START, END), hex 0x...
 * line    OFFSET  LINE                                        from START+OFFSET on, code is on LINE
 * access  OFFSET[,OFFSET...]                                   memory-access instructions at START+OFFSET
 * </pre>
 * {@code line} and {@code access} rows belong to the {@code method} row above them; line offsets ascend. Unknown
 * text fields are {@code -}; lines starting with {@code #} are comments. Method ranges never overlap.
 */
public final class SymbolFile {
    /** First line's format name. */
    public static final String FORMAT = "dsmscope-symbols";
    /** Format version written and read. */
    public static final int VERSION = 1;

    private final long[] start;
    private final long[] end;
    private final String[] cls;
    private final String[] name;
    private final String[] desc;
    private final String[] source;
    private final int[][] lineOffsets;
    private final int[][] lines;
    private final int[][] accesses;

    private SymbolFile(List<Method> ms) {
        int n = ms.size();
        start = new long[n];
        end = new long[n];
        cls = new String[n];
        name = new String[n];
        desc = new String[n];
        source = new String[n];
        lineOffsets = new int[n][];
        lines = new int[n][];
        accesses = new int[n][];
        for (int i = 0; i < n; i++) {
            Method m = ms.get(i);
            start[i] = m.start;
            end[i] = m.end;
            cls[i] = m.cls;
            name[i] = m.name;
            desc[i] = m.desc;
            source[i] = m.source;
            lineOffsets[i] = Arrays.copyOf(m.lineOffsets, m.nLines);
            lines[i] = Arrays.copyOf(m.lines, m.nLines);
            accesses[i] = Arrays.copyOf(m.accesses, m.nAccesses);
            Arrays.sort(accesses[i]);
        }
    }

    /** The conventional name beside trace set {@code prefix} ({@code NAME.p}): {@code NAME.p.symbols}. */
    public static Path pathFor(String prefix) {
        return Path.of(prefix + ".symbols");
    }

    /** Reads a symbol file; bad content gives a {@link org.dsmscope.trace.BadInputException} naming the line. */
    public static SymbolFile read(Path f) throws IOException {
        SidecarText t = SidecarText.open(f, FORMAT, VERSION);
        List<Method> ms = new ArrayList<>();
        Method m = null;
        while (t.next()) {
            switch (t.keyword()) {
                case "method":
                    t.expect(6, "START END CLASS NAME DESCRIPTOR SOURCE_FILE");
                    m = new Method(t.hex(1), t.hex(2), t.text(3), t.text(4), t.text(5), t.text(6));
                    if (Long.compareUnsigned(m.end, m.start) <= 0) {
                        throw t.error("method range ends before it starts");
                    }
                    ms.add(m);
                    break;
                case "line":
                    t.expect(2, "OFFSET LINE");
                    if (m == null) {
                        throw t.error("'line' before any 'method'");
                    }
                    int off = (int) t.hex(1);
                    if (m.nLines > 0 && off <= m.lineOffsets[m.nLines - 1]) {
                        throw t.error("line offsets must ascend within a method");
                    }
                    m.addLine(off, t.dec(2));
                    break;
                case "access":
                    t.expect(1, "OFFSET[,OFFSET...]");
                    if (m == null) {
                        throw t.error("'access' before any 'method'");
                    }
                    for (String s : t.text(1) == null ? new String[0] : t.text(1).split(",")) {
                        try {
                            m.addAccess(Integer.parseUnsignedInt(s.startsWith("0x") ? s.substring(2) : s, 16));
                        } catch (NumberFormatException e) {
                            throw t.error("bad access offset '" + s + "'");
                        }
                    }
                    break;
                default:
                    throw t.error("unknown row '" + t.keyword() + "' (expected method, line or access)");
            }
        }
        ms.sort(Comparator.comparingLong(x -> x.start));
        for (int i = 1; i < ms.size(); i++) {
            if (ms.get(i).start < ms.get(i - 1).end) {
                throw new org.dsmscope.trace.BadInputException(f + ": method ranges overlap: "
                        + ms.get(i - 1).cls + "." + ms.get(i - 1).name + " and " + ms.get(i).cls + "." + ms.get(i).name);
            }
        }
        return new SymbolFile(ms);
    }

    /** Number of methods. */
    public int size() {
        return start.length;
    }

    /** Index of the method whose range holds {@code address}, or -1. */
    public int methodAt(long address) {
        int i = Arrays.binarySearch(start, address);
        if (i < 0) {
            i = -i - 2;
        }
        return i >= 0 && address < end[i] ? i : -1;
    }

    /** Source line of the code at {@code address}, or -1 if unknown. */
    public int lineAt(long address) {
        int m = methodAt(address);
        if (m < 0 || lines[m].length == 0) {
            return -1;
        }
        int i = Arrays.binarySearch(lineOffsets[m], (int) (address - start[m]));
        if (i < 0) {
            i = -i - 2;
        }
        return i >= 0 ? lines[m][i] : -1;
    }

    /** Start of method {@code m}'s range. */
    public long start(int m) {
        return start[m];
    }

    /** End (exclusive) of method {@code m}'s range. */
    public long end(int m) {
        return end[m];
    }

    /** Class name of method {@code m} (null if unknown). */
    public String className(int m) {
        return cls[m];
    }

    /** Name of method {@code m} (null if unknown). */
    public String methodName(int m) {
        return name[m];
    }

    /** Descriptor of method {@code m} (null if unknown). */
    public String descriptor(int m) {
        return desc[m];
    }

    /** Source file of method {@code m} (null if unknown). */
    public String sourceFile(int m) {
        return source[m];
    }

    /** Offsets (from the method's start, ascending) of method {@code m}'s memory-access instructions. */
    public int[] accessOffsets(int m) {
        return accesses[m].clone();
    }

    /** Opens a writer of a symbol file. */
    public static Writer writer(Path f) throws IOException {
        return new Writer(f);
    }

    /** Writes a symbol file row by row (streaming; the agent calls it as classes load). Not thread-safe. */
    public static final class Writer implements Closeable {
        private final BufferedWriter out;
        private boolean inMethod;

        private Writer(Path f) throws IOException {
            out = Files.newBufferedWriter(f, StandardCharsets.UTF_8);
            out.write(FORMAT + " " + VERSION + "\n");
        }

        /** A method occupying code addresses [start, end). Later line and access rows belong to it. */
        public Writer method(long start, long end, String cls, String name, String descriptor, String sourceFile)
                throws IOException {
            if (Long.compareUnsigned(end, start) <= 0) {
                throw new IllegalArgumentException("empty method range");
            }
            out.write("method\t" + SidecarText.hexOut(start) + "\t" + SidecarText.hexOut(end) + "\t"
                    + SidecarText.field(cls) + "\t" + SidecarText.field(name) + "\t" + SidecarText.field(descriptor)
                    + "\t" + SidecarText.field(sourceFile) + "\n");
            inMethod = true;
            return this;
        }

        /** Code from the current method's start + {@code offset} on is on source line {@code line}. */
        public Writer line(int offset, int line) throws IOException {
            check();
            out.write("line\t" + SidecarText.hexOut(offset) + "\t" + line + "\n");
            return this;
        }

        /** Offsets of memory-access instructions of the current method. */
        public Writer accesses(int... offsets) throws IOException {
            check();
            if (offsets.length == 0) {
                return this;
            }
            StringBuilder s = new StringBuilder("access\t");
            for (int i = 0; i < offsets.length; i++) {
                s.append(i == 0 ? "" : ",").append(Integer.toHexString(offsets[i]));
            }
            out.write(s.append('\n').toString());
            return this;
        }

        private void check() {
            if (!inMethod) {
                throw new IllegalStateException("write a method row first");
            }
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

    private static final class Method {
        final long start;
        final long end;
        final String cls;
        final String name;
        final String desc;
        final String source;
        int[] lineOffsets = new int[4];
        int[] lines = new int[4];
        int nLines;
        int[] accesses = new int[4];
        int nAccesses;

        Method(long start, long end, String cls, String name, String desc, String source) {
            this.start = start;
            this.end = end;
            this.cls = cls;
            this.name = name;
            this.desc = desc;
            this.source = source;
        }

        void addLine(int off, int line) {
            if (nLines == lines.length) {
                lines = Arrays.copyOf(lines, nLines * 2);
                lineOffsets = Arrays.copyOf(lineOffsets, nLines * 2);
            }
            lineOffsets[nLines] = off;
            lines[nLines++] = line;
        }

        void addAccess(int off) {
            if (nAccesses == accesses.length) {
                accesses = Arrays.copyOf(accesses, nAccesses * 2);
            }
            accesses[nAccesses++] = off;
        }
    }
}
