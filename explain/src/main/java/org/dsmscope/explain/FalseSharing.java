package org.dsmscope.explain;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;

/**
 * False sharing at cache-line granularity (SPEC §8; issue 26): a line with coherence misses whose processors touch
 * disjoint bytes (no byte one processor writes is touched by another). For each such line: what each processor
 * touched, in source terms (fields with their offset in the object, array element ranges), the coherence misses
 * on it, the misses left when its parts (bytes grouped by the set of processors touching them) lie on separate
 * lines, counted by replaying the trace again with the line split ({@link DsmSimulator} with a split map), and the
 * fix to try.
 */
public final class FalseSharing {
    private static final java.util.regex.Pattern ELEMENT = java.util.regex.Pattern.compile("(.*)\\[(\\d+)]");

    /** One falsely shared line. */
    public static final class Line {
        /** The line number (address / line size). */
        public final long line;
        /** Per processor that touched it: what it touched, "written" or "read". */
        public final Map<Integer, List<String>> touched = new TreeMap<>();
        /** Coherence misses on the line. */
        public int misses;
        /** Coherence misses with the parts on separate lines (-1 before the second replay). */
        public int missesSplit = -1;
        /** Part number of each 64th of the line. */
        final byte[] parts = new byte[64];
        /** The fix to try. */
        public String fix;

        Line(long line) {
            this.line = line;
        }

        /** Misses that separating the parts removes. */
        public int removed() {
            return missesSplit < 0 ? 0 : misses - missesSplit;
        }
    }

    private FalseSharing() {
    }

    /** The falsely shared lines of a line-granularity run ({@code sim} after its replay), by misses. */
    public static List<Line> find(Explainer e, DsmSimulator sim, Sources src) {
        FaultTrace t = e.trace();
        Map<Long, Integer> missesByLine = new TreeMap<>();
        for (int f = 0; f < t.faults; f++) {
            if (e.cause(f) == Explainer.INVALIDATION) {
                missesByLine.merge(t.unit[f], 1, Integer::sum);
            }
        }
        List<Line> out = new ArrayList<>();
        int chunk = Math.max(1, t.unitSize / 64);
        int chunks = Math.min(64, t.unitSize);
        for (Map.Entry<Long, Integer> m : missesByLine.entrySet()) {
            long[][] mk = sim.masks(m.getKey());
            boolean disjoint = true;
            int touching = 0;
            for (int p = 0; p < mk.length; p++) {
                if (mk[p][0] != 0) {
                    touching++;
                }
                for (int q = 0; q < mk.length; q++) {
                    if (p != q && (mk[p][1] & mk[q][0]) != 0) {
                        disjoint = false;
                    }
                }
            }
            if (!disjoint || touching < 2) {
                continue;
            }
            Line l = new Line(m.getKey());
            l.misses = m.getValue();
            Map<Long, Integer> partOf = new LinkedHashMap<>();
            for (int c = 0; c < chunks; c++) {
                long who = 0;
                for (int p = 0; p < mk.length; p++) {
                    if ((mk[p][0] >>> c & 1) != 0) {
                        who |= 1L << (p & 63);
                    }
                }
                l.parts[c] = (byte) (int) partOf.computeIfAbsent(who, x -> partOf.size());
            }
            long base = m.getKey() * t.unitSize;
            for (int p = 0; p < mk.length; p++) {
                if (mk[p][0] != 0) {
                    l.touched.put(p, describe(src, base, chunk, chunks, mk[p][0], mk[p][1]));
                }
            }
            l.fix = fix(l);
            out.add(l);
        }
        out.sort((a, b) -> a.misses != b.misses ? Integer.compare(b.misses, a.misses) : Long.compare(a.line, b.line));
        return out;
    }

    /** The split map for the second replay: each line's part number per 64th. */
    public static Map<Long, byte[]> split(List<Line> lines) {
        Map<Long, byte[]> m = new TreeMap<>();
        for (Line l : lines) {
            m.put(l.line, l.parts);
        }
        return m;
    }

    /** Takes the coherence misses of the second replay. */
    public static void counted(List<Line> lines, DsmSimulator split) {
        for (Line l : lines) {
            l.missesSplit = split.coherenceMisses(l.line);
        }
    }

    /** Runs of touched chunks, named by the data map: {@code org.x.Counter.hits at offset 12 written}. */
    private static List<String> describe(Sources src, long base, int chunk, int chunks, long mask, long wmask) {
        List<String> out = new ArrayList<>();
        String runName = null;
        String arr = null;
        long lo = 0;
        long hi = 0;
        boolean wrote = false;
        long offset = 0;
        for (int c = 0; c <= chunks; c++) {
            boolean on = c < chunks && (mask >>> c & 1) != 0;
            String name = on ? src.describe(base + (long) c * chunk) : null;
            Matcher m = name == null ? null : ELEMENT.matcher(name);
            String a = m != null && m.matches() ? m.group(1) : null;
            long idx = a != null ? Long.parseLong(m.group(2)) : 0;
            boolean same = on && runName != null && (a != null ? a.equals(arr) && (idx == hi || idx == hi + 1)
                    : name.equals(runName));
            if (!same && runName != null) {
                out.add(label(runName, arr, lo, hi, offset, wrote));
                runName = null;
            }
            if (!on) {
                continue;
            }
            if (runName == null) {
                runName = name;
                arr = a;
                lo = idx;
                offset = offsetInObject(src, base + (long) c * chunk);
                wrote = false;
            }
            hi = idx;
            wrote |= (wmask >>> c & 1) != 0;
        }
        return out;
    }

    private static long offsetInObject(Sources src, long address) {
        if (src.dataMap() == null) {
            return -1;
        }
        int i = src.dataMap().rangeAt(address);
        return i < 0 ? -1 : address - src.dataMap().start(i);
    }

    private static String label(String name, String arr, long lo, long hi, long offset, boolean wrote) {
        String what = arr == null ? name : lo == hi ? arr + "[" + lo + "]" : arr + "[" + lo + ".." + hi + "]";
        return what + (offset >= 0 ? " at offset " + offset : "") + (wrote ? " written" : " read");
    }

    /** The fix: per-thread copies for elements of one array, @Contended for fields, else padding. */
    private static String fix(Line l) {
        boolean arrays = true;
        boolean fields = true;
        for (List<String> s : l.touched.values()) {
            for (String x : s) {
                arrays &= x.contains("[");
                fields &= !x.contains("[") && !x.startsWith("0x");
            }
        }
        if (arrays) {
            return "give each thread its own line: per-thread copies (a local accumulator, or a padded slot per"
                    + " thread: index * (line size / element size))";
        }
        if (fields) {
            return "separate the fields: @jdk.internal.vm.annotation.Contended on them (with -XX:-RestrictContended"
                    + " outside the JDK), or padding fields between them";
        }
        return "pad the data apart (allocate the parts on separate lines), or per-thread copies";
    }
}
