package org.dsmscope.explain;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.LongFunction;
import java.util.function.LongToIntFunction;

/**
 * False sharing at cache-line granularity (SPEC §8; issue 26): a line whose coherence misses are mostly misses on
 * bytes the invalidating writes did not touch (processors touching disjoint bytes). For each such line: what each
 * processor touched in those misses, in source terms (fields with their offset in the object, array elements),
 * the coherence misses
 * on it, the misses left when its parts (bytes grouped by the set of processors touching them) lie on separate
 * lines, counted by replaying the trace again with the line split ({@link DsmSimulator} with a split map), and the
 * fix to try.
 */
public final class FalseSharing {
    /** One falsely shared line. */
    public static final class Line {
        /** The line number (address / line size). */
        public final long line;
        /** Per processor that touched it: what it touched, "written" or "read". */
        public final Map<Integer, List<String>> touched = new TreeMap<>();
        /** Coherence misses on the line. */
        public int misses;
        /** Of those, false-sharing misses (the faulting access's bytes not written by the writes behind it). */
        public int falseMisses;
        /** Coherence misses with the parts on separate lines (-1: not counted, no second replay). */
        public int missesSplit = -1;
        /** Part number of each 64th of the line. */
        final byte[] parts = new byte[64];
        /** The fix to try. */
        public String fix;

        Line(long line) {
            this.line = line;
        }

        /** True when the second replay counted the misses with the parts on separate lines. */
        public boolean counted() {
            return missesSplit >= 0;
        }

        /** Misses that separating the parts removes (0 when not counted). */
        public int removed() {
            return missesSplit < 0 ? 0 : misses - missesSplit;
        }
    }

    private FalseSharing() {
    }

    /**
     * The falsely shared lines of a line-granularity run, by misses: lines where at least half the coherence misses
     * are false-sharing misses, i.e. the faulting access's address was written by none of the writes whose
     * invalidations caused the miss (Java accesses to one field or element always have the same address and size,
     * so equal addresses mean the same data; without addresses, equal offsets in the line). {@code masks}: per
     * line, the simulation's byte masks ({@link DsmSimulator#masks}), which give the parts for the split replay;
     * null for a fault trace read from text (no parts: the misses a split removes stay uncounted).
     */
    public static List<Line> find(Explainer e, LongFunction<long[][]> masks, Sources src) {
        FaultTrace t = e.trace();
        Map<Long, int[]> byLine = new TreeMap<>();
        Map<Long, Map<Integer, Map<Long, Boolean>>> who = new TreeMap<>();
        Map<Long, String> names = new HashMap<>();
        for (int f = 0; f < t.faults; f++) {
            if (e.cause(f) != Explainer.INVALIDATION) {
                continue;
            }
            int[] c = byLine.computeIfAbsent(t.unit[f], x -> new int[2]);
            c[0]++;
            int[] ws = e.notices(f);
            boolean trueSharing = false;
            for (int w : ws) {
                trueSharing |= sameData(t, f, w);
            }
            if (trueSharing || position(t, f) < 0) {
                continue;
            }
            c[1]++;
            Map<Integer, Map<Long, Boolean>> m = who.computeIfAbsent(t.unit[f], x -> new TreeMap<>());
            m.computeIfAbsent(t.proc[f], x -> new TreeMap<>()).merge(name(t, f, src, names), t.write[f],
                    Boolean::logicalOr);
            for (int w : ws) {
                if (position(t, w) >= 0) {
                    m.computeIfAbsent(t.proc[w], x -> new TreeMap<>()).merge(name(t, w, src, names), true,
                            Boolean::logicalOr);
                }
            }
        }
        List<Line> out = new ArrayList<>();
        int chunks = Math.min(64, t.unitSize);
        for (Map.Entry<Long, int[]> m : byLine.entrySet()) {
            if (m.getValue()[1] == 0 || 2 * m.getValue()[1] < m.getValue()[0]) {
                continue;
            }
            Line l = new Line(m.getKey());
            l.misses = m.getValue()[0];
            l.falseMisses = m.getValue()[1];
            if (masks != null) {
                long[][] mk = masks.apply(m.getKey());
                Map<Long, Integer> partOf = new LinkedHashMap<>();
                for (int c = 0; c < chunks; c++) {
                    long set = 0;
                    for (int p = 0; p < mk.length; p++) {
                        if ((mk[p][0] >>> c & 1) != 0) {
                            set |= 1L << (p & 63);
                        }
                    }
                    l.parts[c] = (byte) (int) partOf.computeIfAbsent(set, x -> partOf.size());
                }
            }
            who.get(m.getKey()).forEach((proc, at) -> {
                List<String> d = new ArrayList<>();
                at.forEach((pos, wrote) -> d.add(names.get(pos) + (wrote ? " written" : " read")));
                l.touched.put(proc, d);
            });
            l.fix = fix(l);
            out.add(l);
        }
        out.sort((a, b) -> a.misses != b.misses ? Integer.compare(b.misses, a.misses) : Long.compare(a.line, b.line));
        return out;
    }

    /** True when faults f and w (on one line) accessed the same data: equal addresses, else equal offsets. */
    private static boolean sameData(FaultTrace t, int f, int w) {
        if (t.address[f] >= 0 && t.address[w] >= 0) {
            return t.address[f] == t.address[w];
        }
        return t.address[f] < 0 && t.address[w] < 0 && t.offset[f] >= 0 && t.offset[f] == t.offset[w];
    }

    /** Where fault f's data is, for ordering what a processor touched: its address, else its byte in the line. */
    private static long position(FaultTrace t, int f) {
        if (t.address[f] >= 0) {
            return t.address[f];
        }
        return t.offset[f] < 0 ? -1 : t.unit[f] * t.unitSize + t.offset[f];
    }

    /** Fault f's data position, its name remembered in {@code names}. */
    private static long name(FaultTrace t, int f, Sources src, Map<Long, String> names) {
        long pos = position(t, f);
        names.computeIfAbsent(pos, x -> src.access(f));
        return pos;
    }

    /** The split map for the second replay: each line's part number per 64th. */
    public static Map<Long, byte[]> split(List<Line> lines) {
        Map<Long, byte[]> m = new TreeMap<>();
        for (Line l : lines) {
            m.put(l.line, l.parts);
        }
        return m;
    }

    /** Takes the coherence misses per line of the second replay ({@link DsmSimulator#coherenceMisses}). */
    public static void counted(List<Line> lines, LongToIntFunction split) {
        for (Line l : lines) {
            l.missesSplit = split.applyAsInt(l.line);
        }
    }

    /** The fix: per-thread copies for elements of one array, @Contended for fields, else padding. */
    private static String fix(Line l) {
        boolean arrays = true;
        boolean fields = true;
        for (List<String> s : l.touched.values()) {
            for (String x : s) {
                arrays &= x.contains("[");
                fields &= !x.contains("[") && !x.startsWith("0x") && !x.startsWith("bytes ");
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
