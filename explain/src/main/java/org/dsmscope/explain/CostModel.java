package org.dsmscope.explain;

/**
 * The cost model weighting the communication graph's edges and nodes (seed 003: "weights according to the
 * cumulative cost of the communication operations that the edge represents"; SPEC §8), in microseconds:
 * a cold fault costs a request and a page (or line) transfer, 2&middot;latency + transfer; a write to a read-only
 * copy (a twin, or a line upgrade) costs diff creation (the diff is made at the release); a fault on an
 * invalidated copy costs one request and reply (2&middot;latency) per processor whose write notices caused it,
 * plus one diff application per write notice; an edge from a write fault to a fault it explains carries that
 * notice's diff application, and its writer's 2&middot;latency on the first of the writer's edges into the fault.
 *
 * @param latency one-way message latency (µs)
 * @param transfer time to move one whole page or line (µs)
 * @param diffCreate time to make a twin's diff, or to upgrade a shared line (µs)
 * @param diffApply time to fetch and apply one diff, or to move a line after an invalidation (µs)
 */
public record CostModel(double latency, double transfer, double diffCreate, double diffApply) {

    /** Defaults for a page-based software DSM on a cluster: 50 µs latency, 4 KiB in 40 µs, diffs 10 and 5 µs. */
    public static CostModel pages() {
        return new CostModel(50, 40, 10, 5);
    }

    /** Defaults for hardware coherence: 0.1 µs latency, a line in 0.01 µs, upgrade 0.1 µs, line move 0.05 µs. */
    public static CostModel lines() {
        return new CostModel(0.1, 0.01, 0.1, 0.05);
    }

    /** Cost of a cold fault (first touch by the processor) or of a fault with no recorded cause. */
    public double cold() {
        return 2 * latency + transfer;
    }

    /** Weight of an edge into an invalidation fault: {@code firstOfWriter} adds the writer's request and reply. */
    public double edge(boolean firstOfWriter) {
        return diffApply + (firstOfWriter ? 2 * latency : 0);
    }

    /** Checks that every parameter is a finite number &ge; 0; the message names the bad one. */
    public String problem() {
        String[] names = {"--latency", "--transfer", "--diff-create", "--diff-apply"};
        double[] v = {latency, transfer, diffCreate, diffApply};
        for (int i = 0; i < v.length; i++) {
            if (!(v[i] >= 0) || Double.isInfinite(v[i])) {
                return "option " + names[i] + ": must be a number >= 0, was " + v[i];
            }
        }
        return null;
    }
}
