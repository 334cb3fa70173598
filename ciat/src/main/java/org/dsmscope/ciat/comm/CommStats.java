package org.dsmscope.ciat.comm;

/**
 * Communication counters of one phase (seed 000 §4.4, seed 001 §5.4 and §5.6, SPEC §5): access counts per
 * pattern, the sharing degree vector S and invalidation degree vector I (index k holds S[k], index 0 unused), and
 * COMM_MAT (row-major, {@code matrix[i * p + j]} = events from processor i to processor j).
 */
public final class CommStats implements java.io.Serializable {
    private static final long serialVersionUID = 1L;
    /** Number of processors. */
    public final int processors;
    /** Read-after-write accesses. */
    public long raw;
    /** Write-after-read accesses. */
    public long war;
    /** Write-after-write accesses. */
    public long waw;
    /** Read-after-read accesses. */
    public long rar;
    /** Data accesses considered (not to synchronization variables). */
    public long considered;
    /** Data accesses left out because they touch a synchronization variable. */
    public long syncExcluded;
    /** S[k], k = 1..p. */
    public final long[] sharing;
    /** I[k], k = 1..p. */
    public final long[] invalidation;
    /** COMM_MAT, p × p by pair index {@code i * p + j} (dense for few processors, else the pairs counted). */
    public final PairCounts matrix;

    /** Zeroed counters for {@code processors} processors. */
    public CommStats(int processors) {
        this.processors = processors;
        sharing = new long[processors + 1];
        invalidation = new long[processors + 1];
        matrix = new PairCounts(processors);
    }

    /** Adds another phase's counters. */
    public void add(CommStats o) {
        raw += o.raw;
        war += o.war;
        waw += o.waw;
        rar += o.rar;
        considered += o.considered;
        syncExcluded += o.syncExcluded;
        for (int k = 0; k < sharing.length; k++) {
            sharing[k] += o.sharing[k];
            invalidation[k] += o.invalidation[k];
        }
        matrix.add(o.matrix);
    }

    /** COMM_MAT[i][j]. */
    public long matrix(int i, int j) {
        return matrix.get(i, j);
    }

    /** RAW + WAR + WAW + RAR. */
    public long events() {
        return raw + war + waw + rar;
    }
}
