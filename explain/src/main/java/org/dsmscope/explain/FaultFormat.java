package org.dsmscope.explain;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.function.LongFunction;
import org.dsmscope.trace.BadInputException;

/**
 * The page-fault and synchronization trace as text, format "dsmscope-faults 2" (seed 003's input; module README
 * "The fault trace"): a format line, {@code unit page|line SIZE}, {@code processors N}, then one record a line in
 * time order: {@code F ID TIME PROC UNIT R|W ADDRESS SITE OFFSET+SIZE DATA} for a fault and {@code S TIME PROC KIND
 * UNIT:FAULT,FAULT ...} for a synchronization operation with the units it invalidates and the write faults behind
 * each. Units, addresses and code addresses in hex, {@code -} for unknown; a site is a code address or a name
 * without spaces ({@code Counter.java:12}); {@code OFFSET+SIZE} the bytes of the unit the access covers; {@code
 * DATA} the field or element accessed and its offset in its object ({@code long[1]@24}, spaces as {@code %20}), so
 * false sharing can be named from the fault trace alone. Version 1 (faults without the last two fields) is still
 * read. {@link #writer} writes one, {@link #read} reads and checks one.
 */
public final class FaultFormat {
    /** The format name of the first line. */
    public static final String FORMAT = "dsmscope-faults";
    /** The format version written. */
    public static final int VERSION = 2;

    private FaultFormat() {
    }

    /**
     * A sink writing the records to {@code out} after the header (the caller closes {@code out}); {@code data} names
     * the data at an address as {@code NAME@OFFSET} (null: unknown; a null function: no data map).
     */
    public static FaultSink writer(Writer out, boolean lines, int unitSize, int processors,
            LongFunction<String> data) throws IOException {
        out.write(FORMAT + " " + VERSION + "\n");
        out.write("unit " + (lines ? "line" : "page") + " " + unitSize + "\n");
        out.write("processors " + processors + "\n");
        out.write("# F ID TIME PROC UNIT R|W ADDRESS SITE OFFSET+SIZE DATA\n# S TIME PROC KIND UNIT:WRITE_FAULT,..."
                + " ...\n");
        return new TextSink(out, data);
    }

    /** {@code name} with '%', spaces and tabs escaped as %25, %20 and %09 (a DATA field has no blanks). */
    static String escape(String name) {
        return name.replace("%", "%25").replace(" ", "%20").replace("\t", "%09");
    }

    /** Reverses {@link #escape}. */
    static String unescape(String s) {
        return s.indexOf('%') < 0 ? s : s.replace("%20", " ").replace("%09", "\t").replace("%25", "%");
    }

    /** Writes each record as one line. */
    private static final class TextSink implements FaultSink {
        private final Writer out;
        private final StringBuilder sb = new StringBuilder(128);
        private final Map<Integer, String> names = new HashMap<>();
        private final LongFunction<String> data;

        TextSink(Writer out, LongFunction<String> data) {
            this.out = out;
            this.data = data;
        }

        @Override
        public void fault(int id, long time, int proc, long unit, boolean write, long address, long site, int offset,
                int size) {
            sb.setLength(0);
            sb.append("F ").append(id).append(' ').append(time).append(' ').append(proc).append(" 0x")
                    .append(Long.toHexString(unit)).append(write ? " W " : " R ");
            hex(address);
            sb.append(' ');
            if (site < -1) {
                sb.append(names.get((int) (-2 - site)));
            } else {
                hex(site);
            }
            if (offset < 0) {
                sb.append(" -");
            } else {
                sb.append(' ').append(offset).append('+').append(size);
            }
            String d = data == null || address < 0 ? null : data.apply(address);
            sb.append(' ').append(d == null ? "-" : escape(d));
            line();
        }

        private void hex(long v) {
            if (v < 0) {
                sb.append('-');
            } else {
                sb.append("0x").append(Long.toHexString(v));
            }
        }

        @Override
        public void sync(long time, int proc, int kind, long[] units, int[] faults, int n) {
            sb.setLength(0);
            sb.append("S ").append(time).append(' ').append(proc).append(' ').append(KIND_NAMES[kind]);
            for (int i = 0; i < n; i++) {
                if (i == 0 || units[i] != units[i - 1]) {
                    sb.append(" 0x").append(Long.toHexString(units[i])).append(':');
                } else {
                    sb.append(',');
                }
                sb.append(faults[i]);
            }
            line();
        }

        @Override
        public void siteName(int i, String name) {
            names.put(i, name);
        }

        private void line() {
            sb.append('\n');
            try {
                out.append(sb);
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        }
    }

    /**
     * Reads fault trace {@code f} into a new {@link FaultTrace}. Bad content (a missing or wrong header, time going
     * backwards, a processor that does not exist, a synchronization record naming a unit no fault touched before
     * or a write notice that is not an earlier write fault on that unit) is a {@link BadInputException} naming the
     * file and line.
     */
    public static FaultTrace read(Path f) throws IOException {
        try (BufferedReader in = Files.newBufferedReader(f, StandardCharsets.UTF_8)) {
            return new Parser(f, in).parse();
        }
    }

    /** The reader's state: the line number, the last time, the units seen, the text sites. */
    private static final class Parser {
        private final Path file;
        private final BufferedReader in;
        private int lineNo;
        private long lastTime = Long.MIN_VALUE;
        private final LongIntTable known = new LongIntTable(1024);
        private final Map<String, Integer> sites = new HashMap<>();
        private long[] units = new long[16];
        private int[] notices = new int[16];
        private int version;

        Parser(Path file, BufferedReader in) {
            this.file = file;
            this.in = in;
        }

        private BadInputException bad(String what) {
            return new BadInputException(file + ": line " + lineNo + ": " + what);
        }

        private String next() throws IOException {
            String s;
            do {
                s = in.readLine();
                lineNo++;
            } while (s != null && (s.isBlank() || s.startsWith("#")));
            return s;
        }

        FaultTrace parse() throws IOException {
            String first = in.readLine();
            lineNo = 1;
            if (first != null && first.trim().equals(FORMAT + " 1")) {
                version = 1;
            } else if (first != null && first.trim().equals(FORMAT + " " + VERSION)) {
                version = VERSION;
            } else {
                throw bad("not a fault trace: the first line must be '" + FORMAT + " " + VERSION + "' (or '"
                        + FORMAT + " 1')");
            }
            String[] u = header("unit", 3);
            boolean lines;
            if (u[1].equals("line")) {
                lines = true;
            } else if (u[1].equals("page")) {
                lines = false;
            } else {
                throw bad("unit must be 'page' or 'line', was '" + u[1] + "'");
            }
            int size = positive(u[2], "unit size");
            String[] p = header("processors", 2);
            FaultTrace t = new FaultTrace(lines, size, positive(p[1], "processors"));
            for (String s = next(); s != null; s = next()) {
                String[] w = s.trim().split("\\s+");
                if (w[0].equals("F")) {
                    fault(t, w);
                } else if (w[0].equals("S")) {
                    sync(t, w);
                } else {
                    throw bad("unknown record '" + w[0] + "' (F fault, S synchronization)");
                }
            }
            return t;
        }

        private String[] header(String key, int n) throws IOException {
            String s = next();
            String[] w = s == null ? new String[0] : s.trim().split("\\s+");
            if (w.length != n || !w[0].equals(key)) {
                throw bad("expected '" + key + (n == 3 ? " page|line SIZE'" : " N'"));
            }
            return w;
        }

        private int positive(String s, String what) {
            try {
                int v = Integer.parseInt(s);
                if (v > 0) {
                    return v;
                }
            } catch (NumberFormatException e) {
                // below
            }
            throw bad(what + " must be a positive integer, was '" + s + "'");
        }

        private long number(String s, String what) {
            try {
                return s.startsWith("0x") ? Long.parseUnsignedLong(s.substring(2), 16) : Long.parseLong(s);
            } catch (NumberFormatException e) {
                throw bad(what + " is not a number: '" + s + "'");
            }
        }

        private long time(String s) {
            long t = number(s, "time");
            if (t < lastTime) {
                throw bad("time " + t + " goes backwards (the record before is at " + lastTime + ")");
            }
            lastTime = t;
            return t;
        }

        private int proc(FaultTrace t, String s) {
            long p = number(s, "processor");
            if (p < 0 || p >= t.processors) {
                throw bad("processor " + s + " does not exist (processors " + t.processors + ")");
            }
            return (int) p;
        }

        private void fault(FaultTrace t, String[] w) {
            if (version == 1 && w.length != 8) {
                throw bad("a fault has 8 fields: F ID TIME PROC UNIT R|W ADDRESS SITE");
            }
            if (version > 1 && w.length != 10) {
                throw bad("a fault has 10 fields: F ID TIME PROC UNIT R|W ADDRESS SITE OFFSET+SIZE DATA");
            }
            long id = number(w[1], "fault id");
            if (id != t.faults) {
                throw bad("fault id " + w[1] + " out of order: expected " + t.faults);
            }
            long time = time(w[2]);
            int proc = proc(t, w[3]);
            long unit = number(w[4], t.unitName());
            if (!w[5].equals("R") && !w[5].equals("W")) {
                throw bad("access must be R or W, was '" + w[5] + "'");
            }
            long addr = w[6].equals("-") ? -1 : number(w[6], "address");
            long site;
            if (w[7].equals("-")) {
                site = -1;
            } else if (w[7].startsWith("0x")) {
                site = number(w[7], "site");
            } else {
                Integer i = sites.get(w[7]);
                if (i == null) {
                    i = sites.size();
                    sites.put(w[7], i);
                    t.siteName(i, w[7]);
                }
                site = -2L - i;
            }
            int offset = -1;
            int size = 0;
            if (version > 1 && !w[8].equals("-")) {
                int plus = w[8].indexOf('+');
                long o = plus < 0 ? -1 : number(w[8].substring(0, plus), "offset");
                long z = plus < 0 ? -1 : number(w[8].substring(plus + 1), "size");
                if (o < 0 || z <= 0 || o + z > t.unitSize) {
                    throw bad("'" + w[8] + "' is not OFFSET+SIZE within the " + t.unitName() + " of " + t.unitSize
                            + " bytes");
                }
                offset = (int) o;
                size = (int) z;
            }
            known.put(unit, 1);
            t.fault((int) id, time, proc, unit, w[5].equals("W"), addr, site, offset, size);
            if (version > 1 && !w[9].equals("-")) {
                int at = w[9].lastIndexOf('@');
                long off = at <= 0 ? -1 : number(w[9].substring(at + 1), "offset in the object");
                if (off < 0) {
                    throw bad("data '" + w[9] + "' is not NAME@OFFSET");
                }
                t.dataName(unescape(w[9].substring(0, at)), off);
            }
        }

        private void sync(FaultTrace t, String[] w) {
            if (w.length < 4) {
                throw bad("a synchronization record has at least 4 fields: S TIME PROC KIND [UNIT:FAULT,...]...");
            }
            long time = time(w[1]);
            int proc = proc(t, w[2]);
            int kind = -1;
            for (int k = 0; k < FaultSink.KIND_NAMES.length; k++) {
                if (FaultSink.KIND_NAMES[k].equals(w[3])) {
                    kind = k;
                }
            }
            if (kind < 0) {
                throw bad("unknown synchronization kind '" + w[3] + "' (" + String.join(", ",
                        FaultSink.KIND_NAMES) + ")");
            }
            int n = 0;
            for (int i = 4; i < w.length; i++) {
                int colon = w[i].indexOf(':');
                if (colon < 0) {
                    throw bad("'" + w[i] + "' is not UNIT:WRITE_FAULT,...");
                }
                long unit = number(w[i].substring(0, colon), t.unitName());
                if (known.get(unit, 0) == 0) {
                    throw bad("synchronization names unknown " + t.unitName() + " 0x" + Long.toHexString(unit)
                            + ": no fault on it before");
                }
                for (String fs : w[i].substring(colon + 1).split(",")) {
                    long f = number(fs, "write notice");
                    if (f < 0 || f >= t.faults || !t.write[(int) f] || t.unit[(int) f] != unit) {
                        throw bad("write notice " + fs + " is not an earlier write fault on " + t.unitName()
                                + " 0x" + Long.toHexString(unit));
                    }
                    if (n == units.length) {
                        units = java.util.Arrays.copyOf(units, n * 2);
                        notices = java.util.Arrays.copyOf(notices, n * 2);
                    }
                    units[n] = unit;
                    notices[n++] = (int) f;
                }
            }
            t.sync(time, proc, kind, units, notices, n);
        }
    }
}
