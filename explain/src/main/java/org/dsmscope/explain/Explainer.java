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
    int[] notices = new int[1024];
    byte[] noticeKind = new byte[1024];
    double[] edgeWeights = new double[1024];
    private int[] writerStamp;
    @SuppressWarnings("unchecked")
    private final Map<Long, String>[] labels = new Map[FaultSink.KIND_NAMES.length];
    int noticeTotal;
    final int[] prevSame;
    final int[] nextOnUnit;
    final boolean[] cited;
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
        cited = new boolean[f];
        cost = new double[f];
        pattern = new byte[f];
        epoch = new int[f];
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

    private void causes() {
        // one slot per (unit, processor): its last fault (+1) and the head of its pending notices
        LongIntTable slotOf = new LongIntTable(1 << 12);
        int[] lastFault = new int[1024];
        int[] pendHead = new int[1024];
        int slots = 0;
        LongIntTable lastOnUnit = new LongIntTable(1 << 12);
        int[] nodeFault = new int[256];
        byte[] nodeKind = new byte[256];
        int[] nodeNext = new int[256];
        int nodes = 1;
        int s = 0;
        int[] tmp = new int[64];
        writerStamp = new int[n];
        byte[] tmpKind = new byte[64];
        for (int f = 0; f <= t.faults; f++) {
            for (; s < t.syncs && (t.sBefore[s] <= f); s++) {
                for (int i = t.sFirst[s]; i < t.sFirst[s + 1]; i++) {
                    long key = t.pUnit[i] * n + t.sProc[s];
                    int sl = slotOf.get(key, -1);
                    if (sl < 0) {
                        sl = slots++;
                        if (sl == lastFault.length) {
                            lastFault = Arrays.copyOf(lastFault, sl * 2);
                            pendHead = Arrays.copyOf(pendHead, sl * 2);
                        }
                        slotOf.put(key, sl);
                    }
                    if (nodes == nodeFault.length) {
                        nodeFault = Arrays.copyOf(nodeFault, nodes * 2);
                        nodeKind = Arrays.copyOf(nodeKind, nodes * 2);
                        nodeNext = Arrays.copyOf(nodeNext, nodes * 2);
                    }
                    nodeFault[nodes] = t.pFault[i];
                    nodeKind[nodes] = t.sKind[s];
                    nodeNext[nodes] = pendHead[sl];
                    pendHead[sl] = nodes++;
                }
            }
            if (f == t.faults) {
                break;
            }
            long key = t.unit[f] * n + t.proc[f];
            int sl = slotOf.get(key, -1);
            if (sl < 0) {
                sl = slots++;
                if (sl == lastFault.length) {
                    lastFault = Arrays.copyOf(lastFault, sl * 2);
                    pendHead = Arrays.copyOf(pendHead, sl * 2);
                }
                slotOf.put(key, sl);
            }
            int prev = lastFault[sl] - 1;
            prevSame[f] = prev;
            lastFault[sl] = f + 1;
            int last = lastOnUnit.get(t.unit[f], 0) - 1;
            nextOnUnit[f] = -1;
            if (last >= 0) {
                nextOnUnit[last] = f;
            }
            lastOnUnit.put(t.unit[f], f + 1);
            int head = pendHead[sl];
            pendHead[sl] = 0;
            nFirst[f] = noticeTotal;
            if (prev < 0) {
                cause[f] = COLD;
                cost[f] = cm.cold();
            } else if (head > 0) {
                int m = 0;
                for (int x = head; x > 0; x = nodeNext[x]) {
                    if (m == tmp.length) {
                        tmp = Arrays.copyOf(tmp, m * 2);
                        tmpKind = Arrays.copyOf(tmpKind, m * 2);
                    }
                    tmpKind[m] = nodeKind[x];
                    tmp[m++] = nodeFault[x];
                }
                addNotices(f, tmp, tmpKind, m);
                cause[f] = INVALIDATION;
                double c = 0;
                for (int k = nFirst[f]; k < nFirst[f] + nCount[f]; k++) {
                    int writer = t.proc[notices[k]];
                    boolean first = writerStamp[writer] != f + 1;
                    writerStamp[writer] = f + 1;
                    edgeWeights[k] = cm.edge(first);
                    c += edgeWeights[k];
                    cited[notices[k]] = true;
                }
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

    /** Stores the m notices (unsorted, maybe repeated) of fault f sorted and unique. */
    private void addNotices(int f, int[] w, byte[] kinds, int m) {
        // insertion order is newest first; sort ascending by fault id keeping each id's newest kind
        long[] packed = new long[m];
        for (int i = 0; i < m; i++) {
            packed[i] = ((long) w[i] << 8) | (kinds[i] & 0xFF);
        }
        Arrays.sort(packed);
        if (noticeTotal + m > notices.length) {
            int c = Math.max(notices.length * 2, noticeTotal + m);
            notices = Arrays.copyOf(notices, c);
            noticeKind = Arrays.copyOf(noticeKind, c);
            edgeWeights = Arrays.copyOf(edgeWeights, c);
        }
        int k = 0;
        for (int i = 0; i < m; i++) {
            int id = (int) (packed[i] >>> 8);
            if (k > 0 && notices[noticeTotal + k - 1] == id) {
                continue;
            }
            notices[noticeTotal + k] = id;
            noticeKind[noticeTotal + k++] = (byte) packed[i];
        }
        nCount[f] = k;
        noticeTotal += k;
    }

    /**
     * Intervals and patterns: consumers sharing a write notice are in one interval (union-find over faults as
     * consumers, 2f, and as notices, 2w+1); per interval, one or several producers and consumers; migratory when
     * the one consumer writes the page next (its faulting access is a write, or its next fault on the page is a
     * write and comes before any other processor's) and that write is itself a notice of a later fault.
     */
    private void patterns() {
        int f = t.faults;
        int[] parent = new int[2 * f];
        for (int i = 0; i < parent.length; i++) {
            parent[i] = i;
        }
        for (int x = 0; x < f; x++) {
            if (cause[x] == INVALIDATION) {
                for (int k = 0; k < nCount[x]; k++) {
                    union(parent, 2 * x, 2 * notices[nFirst[x] + k] + 1);
                }
            }
        }
        int[] prod = new int[2 * f];
        int[] cons = new int[2 * f];
        boolean[] migOk = new boolean[2 * f];
        Arrays.fill(prod, -1);
        Arrays.fill(cons, -1);
        Arrays.fill(migOk, true);
        for (int x = 0; x < f; x++) {
            if (cause[x] != INVALIDATION) {
                continue;
            }
            int r = find(parent, 2 * x);
            epoch[x] = r;
            cons[r] = merge(cons[r], t.proc[x]);
            for (int k = 0; k < nCount[x]; k++) {
                prod[r] = merge(prod[r], t.proc[notices[nFirst[x] + k]]);
            }
            migOk[r] &= writesNext(x);
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
                    Pattern p = !mp && !mc && prod[r] != cons[r] && migOk[r] ? Pattern.MIGRATORY
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
        return cited[g];
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
