package org.dsmscope.explain;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Communication analysis of a fault trace (seed 003; SPEC §8). One pass in trace order finds each fault's immediate
 * cause: the write notices delivered to its processor for its page since its previous fault there (the
 * invalidation that preceded it and the write faults behind it), or a cold start (the processor's first touch), or
 * a twin (a write to a valid read-only copy). Those cause edges, with each processor's previous fault on the page,
 * form the page's communication graph; an explanation is the set of paths back to the previous fault on the same
 * page by the same processor. Faults whose causes share a write notice form one interval of the page; its
 * producers and consumers give the pattern. Profiles sum the cost model's weights by data structure, source line
 * and cause; pages with similar explanations are merged per data structure and per source line.
 */
public final class Explainer {
    /** Cause: the processor's first touch of the page. */
    public static final byte COLD = 0;
    /** Cause: write notices invalidated the processor's copy. */
    public static final byte INVALIDATION = 1;
    /** Cause: a write to a valid read-only copy (twin; an upgrade of a shared line). */
    public static final byte TWIN = 2;
    /** Cause: a fault on a page the processor held, with no invalidation recorded (only in traces made elsewhere). */
    public static final byte UNEXPLAINED = 3;
    private static final Pattern[] PATTERNS = Pattern.values();
    /** Most paths an explanation lists. */
    static final int MAX_PATHS = 8;
    /** Longest path (edges) an explanation follows. */
    static final int MAX_DEPTH = 12;

    final FaultTrace t;
    final CostModel cm;
    final int n;
    final byte[] cause;
    final int[] nFirst;
    final int[] nCount;
    final int[] notices;
    final byte[] noticeKind;
    final double[] edgeWeights;
    private final int[] parent;
    private long[] packed = new long[64];
    @SuppressWarnings("unchecked")
    private final Map<Long, String>[] labels = new Map[FaultSink.KIND_NAMES.length];
    int noticeTotal;
    final int[] prevSame;
    final int[] nextOnUnit;
    /** Per write fault: 1 + the first fault its notice caused (0: never cited). */
    final int[] firstConsumer;
    /** Per invalidation fault: its producers (a set as in {@link #merge}), then the root of its interval. */
    final double[] cost;
    final byte[] pattern;
    final int[] epoch;

    /** Analyses {@code trace} with cost model {@code cm}. */
    public Explainer(FaultTrace trace, CostModel cm) {
        this.t = trace;
        this.cm = cm;
        this.n = trace.processors;
        int f = trace.faults;
        cause = new byte[f];
        nFirst = new int[f];
        nCount = new int[f];
        prevSame = new int[f];
        nextOnUnit = new int[f];
        firstConsumer = new int[f];
        notices = new int[trace.pairs];
        noticeKind = new byte[trace.pairs];
        edgeWeights = new double[trace.pairs];
        cost = new double[f];
        pattern = new byte[f];
        epoch = new int[f];
        parent = new int[f];
        for (int x = 0; x < f; x++) {
            parent[x] = x;
        }
        for (int k = 0; k < labels.length; k++) {
            labels[k] = new HashMap<>();
        }
        causes();
        patterns();
    }

    /** The trace explained. */
    public FaultTrace trace() {
        return t;
    }

    /** The cost model. */
    public CostModel costModel() {
        return cm;
    }

    /** Cause of fault {@code f}: {@link #COLD}, {@link #INVALIDATION}, {@link #TWIN} or {@link #UNEXPLAINED}. */
    public byte cause(int f) {
        return cause[f];
    }

    /** The write faults whose notices caused fault {@code f} (empty unless {@link #INVALIDATION}), ascending. */
    public int[] notices(int f) {
        return Arrays.copyOfRange(notices, nFirst[f], nFirst[f] + nCount[f]);
    }

    /** The pattern of remote request {@code f}, or null for a twin (not a remote request). */
    public Pattern pattern(int f) {
        return pattern[f] < 0 ? null : PATTERNS[pattern[f]];
    }

    /** Cost of fault {@code f} (its incoming edges' weights, or its own for cold faults and twins). */
    public double cost(int f) {
        return cost[f];
    }

    /** The previous fault of the same processor on the same unit, or -1. */
    public int previous(int f) {
        return prevSame[f];
    }

    /** True for a remote request (a fault that fetches data: cold, invalidation, unexplained). */
    public boolean remote(int f) {
        return cause[f] != TWIN;
    }

    /** Weight of the edge from the k-th notice of fault {@code f} (its writer's first edge carries the request). */
    public double edgeWeight(int f, int k) {
        return edgeWeights[nFirst[f] + k];
    }

    /** Number of write notices behind fault {@code f}. */
    public int noticeCount(int f) {
        return nCount[f];
    }

    /** The k-th write notice behind fault {@code f}. */
    public int notice(int f, int k) {
        return notices[nFirst[f] + k];
    }

    /** The synchronization kind that delivered the k-th notice of fault {@code f} ({@link FaultSink} kinds). */
    public int noticeKind(int f, int k) {
        return noticeKind[nFirst[f] + k];
    }

    /**
     * Finds each fault's cause in one pass. Units are numbered first (one hash lookup a fault); a (unit, processor)
     * slot is then {@code unit * n + processor} in flat arrays, or, when those would be too large, a number from a
     * hash table. Per slot: its last fault and its pending notices, a list of nodes newest first (node x: {@code
     * pend[4x]} the write fault, {@code pend[4x+1]} the kind, {@code pend[4x+2]} its processor, {@code pend[4x+3]}
     * the next node). A fault takes its slot's list and gives the nodes back, so the live nodes stay few and in
     * cache; the list read backwards is in delivery order, which ascends by fault id in the simulation's traces (a
     * synchronization record's notices ascend, later intervals hold later write faults), so no sort is needed then.
     * The intervals' union-find runs in the same pass: each write fault remembers the first fault its notice
     * caused. A notice costs one access to its write fault's data when delivered and one when consumed; nothing is
     * allocated per fault or per notice (the notice arrays hold at most one entry per synchronization pair).
     */
    private void causes() {
        int faults = t.faults;
        long[] info = new long[faults];
        int units = numberUnits(info);
        Slots sl = new Slots(units, n);
        int[] lastOnUnit = new int[units];
        int[] pend = new int[4 * 1024];
        int[] writers = new int[64];
        int used = 1;
        int free = 0;
        int s = 0;
        int[] writerStamp = new int[n];
        for (int f = 0; f <= faults; f++) {
            for (; s < t.syncs && (t.sBefore[s] <= f); s++) {
                int kind = t.sKind[s];
                int receiver = t.sProc[s];
                for (int i = t.sFirst[s], end = t.sFirst[s + 1]; i < end; i++) {
                    int w = t.pFault[i];
                    long v = info[w];
                    int x = sl.slot((int) (v >>> 32), receiver);
                    int node = free;
                    if (node > 0) {
                        free = pend[4 * node + 3];
                    } else {
                        node = used++;
                        if (4 * node == pend.length) {
                            pend = Arrays.copyOf(pend, pend.length * 2);
                        }
                    }
                    pend[4 * node] = w;
                    pend[4 * node + 1] = kind;
                    pend[4 * node + 2] = (int) v;
                    pend[4 * node + 3] = sl.head[x];
                    sl.head[x] = node;
                    sl.count[x]++;
                }
            }
            if (f == faults) {
                break;
            }
            int ui = (int) (info[f] >>> 32);
            int x = sl.slot(ui, t.proc[f]);
            int prev = sl.last[x] - 1;
            prevSame[f] = prev;
            sl.last[x] = f + 1;
            int last = lastOnUnit[ui] - 1;
            nextOnUnit[f] = -1;
            if (last >= 0) {
                nextOnUnit[last] = f;
            }
            lastOnUnit[ui] = f + 1;
            int head = sl.head[x];
            int m = sl.count[x];
            sl.head[x] = 0;
            sl.count[x] = 0;
            nFirst[f] = noticeTotal;
            if (head > 0) {
                // the notices, oldest first, into notices[noticeTotal ..]; the nodes back to the free list
                if (m > writers.length) {
                    writers = new int[Math.max(m, 2 * writers.length)];
                }
                boolean ascending = true;
                int o = m;
                int b = noticeTotal;
                int node = head;
                int tail = head;
                for (; node > 0; node = pend[4 * node + 3]) {
                    int id = pend[4 * node];
                    ascending &= o == m || id < notices[b + o];
                    notices[b + --o] = id;
                    noticeKind[b + o] = (byte) pend[4 * node + 1];
                    writers[o] = pend[4 * node + 2];
                    tail = node;
                }
                pend[4 * tail + 3] = free;
                free = head;
                if (prev >= 0 && !ascending) {
                    m = sortUnique(b, m);
                    for (int k = 0; k < m; k++) {
                        writers[k] = t.proc[notices[b + k]];
                    }
                }
                if (prev >= 0) {
                    nCount[f] = m;
                }
            }
            if (prev < 0) {
                cause[f] = COLD;
                cost[f] = cm.cold();
            } else if (head > 0) {
                int b = noticeTotal;
                noticeTotal += m;
                cause[f] = INVALIDATION;
                double c = 0;
                int producers = -1;
                for (int k = 0; k < m; k++) {
                    int writer = writers[k];
                    producers = merge(producers, writer);
                    boolean first = writerStamp[writer] != f + 1;
                    writerStamp[writer] = f + 1;
                    edgeWeights[b + k] = cm.edge(first);
                    c += edgeWeights[b + k];
                    int w = notices[b + k];
                    int c0 = firstConsumer[w];
                    if (c0 == 0) {
                        firstConsumer[w] = f + 1;
                    } else {
                        union(parent, f, c0 - 1);
                    }
                }
                epoch[f] = producers;
                cost[f] = c;
            } else if (t.write[f]) {
                cause[f] = TWIN;
                cost[f] = cm.diffCreate();
            } else {
                cause[f] = UNEXPLAINED;
                cost[f] = cm.cold();
            }
        }
    }

    /** Numbers the units in order of first fault: {@code info[f]} = unit number &lt;&lt; 32 | processor; the count. */
    private int numberUnits(long[] info) {
        LongIntTable unitOf = new LongIntTable(1 << 10);
        long lastUnit = 0;
        int lastIndex = -1;
        for (int f = 0; f < t.faults; f++) {
            long u = t.unit[f];
            int i = lastIndex;
            if (i < 0 || u != lastUnit) {
                i = unitOf.get(u, -1);
                if (i < 0) {
                    i = unitOf.size();
                    unitOf.put(u, i);
                }
                lastUnit = u;
                lastIndex = i;
            }
            info[f] = (long) i << 32 | t.proc[f];
        }
        return unitOf.size();
    }

    /**
     * The (unit, processor) slots of {@link #causes}: last fault + 1, head of the pending notices and their count.
     * Flat ({@code unit * n + processor}) up to {@link #FLAT_SLOTS} slots, else numbered through a hash table.
     */
    private static final class Slots {
        /** Most slots kept flat (three ints each). */
        static final long FLAT_SLOTS = 1 << 22;
        final int n;
        final LongIntTable index;
        int[] last;
        int[] head;
        int[] count;

        Slots(int units, int n) {
            this.n = n;
            int size = (long) units * n <= FLAT_SLOTS ? units * n : 1024;
            index = (long) units * n <= FLAT_SLOTS ? null : new LongIntTable(1 << 12);
            last = new int[size];
            head = new int[size];
            count = new int[size];
        }

        int slot(int unit, int p) {
            if (index == null) {
                return unit * n + p;
            }
            long key = (long) unit * n + p;
            int x = index.get(key, -1);
            if (x < 0) {
                x = index.size();
                if (x == last.length) {
                    last = Arrays.copyOf(last, x * 2);
                    head = Arrays.copyOf(head, x * 2);
                    count = Arrays.copyOf(count, x * 2);
                }
                index.put(key, x);
            }
            return x;
        }
    }

    /** Sorts the m notices from {@code from} by fault id, keeping each id once with its smallest kind; their count. */
    private int sortUnique(int from, int m) {
        if (packed.length < m) {
            packed = new long[Math.max(m, packed.length * 2)];
        }
        for (int i = 0; i < m; i++) {
            packed[i] = ((long) notices[from + i] << 8) | (noticeKind[from + i] & 0xFF);
        }
        Arrays.sort(packed, 0, m);
        int k = 0;
        for (int i = 0; i < m; i++) {
            int id = (int) (packed[i] >>> 8);
            if (k > 0 && notices[from + k - 1] == id) {
                continue;
            }
            notices[from + k] = id;
            noticeKind[from + k++] = (byte) packed[i];
        }
        return k;
    }

    /**
     * Intervals and patterns: consumers sharing a write notice are in one interval (the union-find of {@link
     * #causes}, over faults as consumers: a fault that is also a notice starts no chain of its own); per interval,
     * one or several producers and consumers; migratory when the one consumer writes the page next (its faulting
     * access is a write, or its next fault on the page is a write and comes before any other processor's) and that
     * write is itself a notice of a later fault.
     */
    private void patterns() {
        int f = t.faults;
        int[] prod = new int[f];
        int[] cons = new int[f];
        boolean[] migBad = new boolean[f];
        Arrays.fill(prod, -1);
        Arrays.fill(cons, -1);
        for (int x = 0; x < f; x++) {
            if (cause[x] != INVALIDATION) {
                continue;
            }
            int r = find(parent, x);
            cons[r] = merge(cons[r], t.proc[x]);
            int ps = epoch[x];
            prod[r] = ps == -2 ? -2 : merge(prod[r], ps);
            migBad[r] |= !writesNext(x);
            epoch[x] = r;
        }
        for (int x = 0; x < f; x++) {
            switch (cause[x]) {
                case COLD:
                case UNEXPLAINED:
                    pattern[x] = (byte) Pattern.COLD_START.ordinal();
                    break;
                case TWIN:
                    pattern[x] = -1;
                    break;
                default:
                    int r = epoch[x];
                    boolean mp = prod[r] == -2;
                    boolean mc = cons[r] == -2;
                    Pattern p = !mp && !mc && prod[r] != cons[r] && !migBad[r] ? Pattern.MIGRATORY
                            : Pattern.of(mp, mc);
                    pattern[x] = (byte) p.ordinal();
            }
        }
    }

    /** A set of processors kept as: -1 none, p the one processor p, -2 several. */
    private static int merge(int set, int p) {
        return set == -1 ? p : set == p ? p : -2;
    }

    private boolean writesNext(int x) {
        int g = x;
        if (!t.write[x]) {
            g = nextOnUnit[x];
            if (g < 0 || t.proc[g] != t.proc[x] || !t.write[g]) {
                return false;
            }
        }
        return firstConsumer[g] != 0;
    }

    private static int find(int[] parent, int x) {
        while (parent[x] != x) {
            parent[x] = parent[parent[x]];
            x = parent[x];
        }
        return x;
    }

    private static void union(int[] parent, int a, int b) {
        int ra = find(parent, a);
        int rb = find(parent, b);
        if (ra != rb) {
            parent[Math.max(ra, rb)] = Math.min(ra, rb);
        }
    }

    /**
     * The explanation of fault {@code f}: the paths back through the graph (cause edges from write faults, and
     * each processor's previous fault on the page) to the previous fault of f's processor on the page, each path
     * oldest first as fault ids; a path that reaches a fault older than that one, or a cold start, stops there.
     * Empty for cold faults and twins. At most {@link #MAX_PATHS} paths of {@link #MAX_DEPTH} edges.
     */
    public List<int[]> explanation(int f) {
        List<int[]> out = new ArrayList<>();
        if (cause[f] != INVALIDATION) {
            return out;
        }
        int[] path = new int[MAX_DEPTH + 2];
        path[0] = f;
        for (int k = 0; k < nCount[f] && out.size() < MAX_PATHS; k++) {
            walk(notices[nFirst[f] + k], prevSame[f], path, 1, out);
        }
        return out;
    }

    private void walk(int g, int target, int[] path, int depth, List<int[]> out) {
        if (out.size() >= MAX_PATHS) {
            return;
        }
        if (g < target) {
            emit(path, depth, out);
            return;
        }
        path[depth] = g;
        if (g == target || cause[g] == COLD || depth > MAX_DEPTH) {
            emit(path, depth + 1, out);
            return;
        }
        boolean any = false;
        if (cause[g] == INVALIDATION) {
            for (int k = 0; k < nCount[g]; k++) {
                walk(notices[nFirst[g] + k], target, path, depth + 1, out);
                any = true;
            }
        }
        if (prevSame[g] >= 0) {
            walk(prevSame[g], target, path, depth + 1, out);
            any = true;
        }
        if (!any) {
            emit(path, depth + 1, out);
        }
    }

    private static void emit(int[] path, int len, List<int[]> out) {
        int[] p = new int[len];
        for (int i = 0; i < len; i++) {
            p[i] = path[len - 1 - i];
        }
        out.add(p);
    }

    /**
     * The shape of a path (fault ids oldest first) in roles: {@code C} for the faulting processor, {@code P1},
     * {@code P2} … for the others in the order met walking back from the fault, with R or W, e.g. {@code C:W > P1:R
     * > P1:W > C:R}; a leading {@code ... >} when the path stops before the consumer's previous fault.
     */
    public String shape(int[] path, int f) {
        Map<Integer, String> roles = new HashMap<>();
        roles.put(t.proc[f], "C");
        String[] tok = new String[path.length];
        for (int i = path.length - 1; i >= 0; i--) {
            int p = t.proc[path[i]];
            String r = roles.get(p);
            if (r == null) {
                r = "P" + roles.size();
                roles.put(p, r);
            }
            tok[i] = r + ":" + (t.write[path[i]] ? "W" : "R");
        }
        StringBuilder sb = new StringBuilder();
        if (path[0] != prevSame[f]) {
            sb.append("... > ");
        }
        return sb.append(String.join(" > ", tok)).toString();
    }

    /** The shape of fault f's explanation: its distinct path shapes, sorted, at most 3, joined by " | ". */
    public String explanationShape(int f) {
        if (cause[f] == COLD || cause[f] == UNEXPLAINED) {
            return "cold start";
        }
        if (cause[f] == TWIN) {
            return t.lines ? "upgrade" : "twin";
        }
        java.util.TreeSet<String> s = new java.util.TreeSet<>();
        for (int[] p : explanation(f)) {
            s.add(shape(p, f));
        }
        List<String> l = new ArrayList<>(s);
        return String.join(" | ", l.subList(0, Math.min(3, l.size())));
    }

    /** A label for the cause of fault f, or of its k-th notice edge for an invalidation (profiles by cause). */
    public String causeLabel(int f, int k, Sources src) {
        switch (cause[f]) {
            case COLD:
                return "cold start (first touch)";
            case TWIN:
                return t.lines ? "upgrade (write to a shared copy)" : "twin (write to a read-only copy)";
            case UNEXPLAINED:
                return "no invalidation recorded";
            default:
                int w = notices[nFirst[f] + k];
                int kind = noticeKind[nFirst[f] + k];
                return labels[kind].computeIfAbsent(t.site[w], x -> "invalidated " + (kind == FaultSink.INVALIDATE
                        ? "" : "at " + FaultSink.KIND_NAMES[kind] + " ") + "by a write at " + src.site(w));
        }
    }

    /** Totals by pattern over remote requests (cost), in {@link Pattern} order. */
    public double[] costByPattern() {
        double[] c = new double[Pattern.values().length];
        for (int f = 0; f < t.faults; f++) {
            if (pattern[f] >= 0) {
                c[pattern[f]] += cost[f];
            }
        }
        return c;
    }

    /** Faults per cause, in cause order (cold, invalidation, twin, unexplained). */
    public long[] countByCause() {
        long[] c = new long[4];
        for (int f = 0; f < t.faults; f++) {
            c[cause[f]]++;
        }
        return c;
    }

    /** Every fault's cost summed. */
    public double totalCost() {
        double c = 0;
        for (int f = 0; f < t.faults; f++) {
            c += cost[f];
        }
        return c;
    }

    /** Faults of each unit, in trace order, by unit ascending. */
    public Map<Long, int[]> faultsByUnit() {
        Map<Long, List<Integer>> m = new java.util.TreeMap<>();
        for (int f = 0; f < t.faults; f++) {
            m.computeIfAbsent(t.unit[f], u -> new ArrayList<>()).add(f);
        }
        Map<Long, int[]> out = new LinkedHashMap<>();
        m.forEach((u, l) -> out.put(u, l.stream().mapToInt(Integer::intValue).toArray()));
        return out;
    }
}
