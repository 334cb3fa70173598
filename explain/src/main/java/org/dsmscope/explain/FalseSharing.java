package org.dsmscope.explain;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

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

    /**
     * The falsely shared lines of a line-granularity run ({@code sim} after its replay), by misses: lines where at
     * least half the coherence misses are false-sharing misses, i.e. the faulting access's address was written by
     * none of the writes whose invalidations caused the miss (Java accesses to one field or element always have the
     * same address and size, so equal addresses mean the same data).
     */
    public static List<Line> find(Explainer e, DsmSimulator sim, Sources src) {
        FaultTrace t = e.trace();
        Map<Long, int[]> byLine = new TreeMap<>();
        Map<Long, Map<Integer, Map<Long, Boolean>>> who = new TreeMap<>();
        for (int f = 0; f < t.faults; f++) {
            if (e.cause(f) != Explainer.INVALIDATION) {
                continue;
            }
            int[] c = byLine.computeIfAbsent(t.unit[f], x -> new int[2]);
            c[0]++;
            int[] ws = e.notices(f);
            boolean trueSharing = false;
            for (int w : ws) {
                trueSharing |= t.address[w] == t.address[f];
            }
            if (trueSharing || t.address[f] < 0) {
                continue;
            }
            c[1]++;
            Map<Integer, Map<Long, Boolean>> m = who.computeIfAbsent(t.unit[f], x -> new TreeMap<>());
            m.computeIfAbsent(t.proc[f], x -> new TreeMap<>()).merge(t.address[f], t.write[f], Boolean::logicalOr);
            for (int w : ws) {
                m.computeIfAbsent(t.proc[w], x -> new TreeMap<>()).merge(t.address[w], true, Boolean::logicalOr);
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
            long[][] mk = sim.masks(m.getKey());
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
            who.get(m.getKey()).forEach((proc, addrs) -> {
                List<String> d = new ArrayList<>();
                addrs.forEach((a, wrote) -> d.add(src.describe(a) + offset(src, a) + (wrote ? " written" : " read")));
                l.touched.put(proc, d);
            });
            l.fix = fix(l);
            out.add(l);
        }
        out.sort((a, b) -> a.misses != b.misses ? Integer.compare(b.misses, a.misses) : Long.compare(a.line, b.line));
        return out;
    }

    private static String offset(Sources src, long address) {
        if (src.dataMap() == null) {
            return "";
        }
        int i = src.dataMap().rangeAt(address);
        return i < 0 ? "" : " at offset " + (address - src.dataMap().start(i));
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
