package org.dsmscope.cdat;

/**
 * CDAT's counts for one phase or the aggregate (seed 000 §5, SPEC §6). Plain arrays, added up with {@link #add}.
 */
public final class Counters implements java.io.Serializable {
    private static final long serialVersionUID = 1L;
    /** Streams: data (loads and stores of normal processors), instruction fetches, I/O processors' transfers. */
    public static final int DATA = 0;
    /** Instruction stream. */
    public static final int INSTRUCTION = 1;
    /** I/O stream (disk transfers with {@code -handle_io}). */
    public static final int IO = 2;
    /** Stream names, in index order. */
    public static final String[] STREAMS = {"data", "instruction", "io"};

    /** Figure: cache hits. */
    public static final int HIT = 0;
    /** Figure: cache misses. */
    public static final int MISS = 1;
    /** Figure: misses satisfied in the requester's node. */
    public static final int MISS_LOCAL = 2;
    /** Figure: misses satisfied from another node. */
    public static final int MISS_REMOTE = 3;
    /** Figure: misses satisfied from a memory bank of the requester's node. */
    public static final int LOCAL_MEMORY = 4;
    /** Figure: misses satisfied from another cache of the requester's node. */
    public static final int LOCAL_CACHE = 5;
    /** Figure: misses satisfied from a memory bank of another node. */
    public static final int REMOTE_MEMORY = 6;
    /** Figure: misses satisfied from a cache of another node. */
    public static final int REMOTE_CACHE = 7;
    /** The eight figures' names (seed 000 §5's list), in index order. */
    public static final String[] FIGURES = {"hits", "misses", "missesLocal", "missesRemote", "localMemory",
        "localCache", "remoteMemory", "remoteCache"};

    /** State table columns: the processor requests and returns, by code. */
    public static final int[] COLUMNS = {1, 2, 3, 4, 5, 6, 21, 23};
    /** State table rows: home (local, remote) × presence (local, remote, home) × status (idle .. dirty). */
    public static final int ROWS = 24;
    /** Presence names, in index order. */
    public static final String[] PRESENCE = {"local", "remote", "home"};
    /** Line status names, in index order (status codes 1..4 of Appendix C). */
    public static final String[] STATUS = {"idle", "shared", "exclusive", "dirty"};

    /** [stream][figure]. */
    public final long[][] streams = new long[3][8];
    /** Transactions by code (index = Appendix C code). */
    public final long[] transactions = new long[57];
    /** Processor requests (codes 1..6). */
    public long requests;
    /** Transactions on the requests' critical paths. */
    public long criticalPath;
    /** [row][column] of the state table ({@link #row}, {@link #COLUMNS}). */
    public final long[][] stateTable = new long[ROWS][COLUMNS.length];
    /** Requests that found the line shared in a cache of another node, and the sharers they found. */
    public long remoteSharedRequests;
    /** Sum of the sharing degrees those requests found. */
    public long remoteSharedSharers;
    /**
     * Ownership requests ({@code read_priv_own}, {@code req_inv}) for lines of pages replicated in every node (code
     * pages under RR2 and Oracle): each replica is kept coherent on its own, so these stores do not reach the others.
     */
    public long replicatedStores;
    /** Misses the requester's node's interconnect cache answered (counted as satisfied from a local cache). */
    public long interconnectHits;
    /** Active cycles per simulated processor. */
    public final long[] active;
    /** Idle cycles per simulated processor. */
    public final long[] idle;

    /** Counters for {@code processors} simulated processors. */
    public Counters(int processors) {
        active = new long[processors];
        idle = new long[processors];
    }

    /** The state-table row of home {@code remote?}, presence and status (1..4). */
    public static int row(boolean remoteHome, int presence, int status) {
        return (remoteHome ? 12 : 0) + presence * 4 + status - 1;
    }

    /** {@link #column} of every code 0..56 (a transaction code of Appendix C). */
    private static final int[] COLUMN_OF = new int[57];

    static {
        for (int code = 0; code < COLUMN_OF.length; code++) {
            COLUMN_OF[code] = column(code);
        }
    }

    /** {@link #column} of a transaction code (0..56) by table. */
    static int columnOf(int code) {
        return COLUMN_OF[code];
    }

    /** The state-table column of a request or return code, or -1. */
    public static int column(int code) {
        for (int i = 0; i < COLUMNS.length; i++) {
            if (COLUMNS[i] == code) {
                return i;
            }
        }
        return -1;
    }

    /** All transactions. */
    public long totalTransactions() {
        long n = 0;
        for (long t : transactions) {
            n += t;
        }
        return n;
    }

    /** Critical-path transactions per processor request (seed 000 §5), 0 without requests. */
    public double averageLatency() {
        return requests == 0 ? 0 : (double) criticalPath / requests;
    }

    /** Average sharing degree of remotely shared lines, 0 if none was met. */
    public double remoteSharingDegree() {
        return remoteSharedRequests == 0 ? 0 : (double) remoteSharedSharers / remoteSharedRequests;
    }

    /** Adds {@code o} into this. */
    public void add(Counters o) {
        for (int s = 0; s < 3; s++) {
            for (int f = 0; f < 8; f++) {
                streams[s][f] += o.streams[s][f];
            }
        }
        for (int i = 0; i < transactions.length; i++) {
            transactions[i] += o.transactions[i];
        }
        requests += o.requests;
        criticalPath += o.criticalPath;
        for (int r = 0; r < ROWS; r++) {
            for (int c = 0; c < COLUMNS.length; c++) {
                stateTable[r][c] += o.stateTable[r][c];
            }
        }
        remoteSharedRequests += o.remoteSharedRequests;
        remoteSharedSharers += o.remoteSharedSharers;
        replicatedStores += o.replicatedStores;
        interconnectHits += o.interconnectHits;
        for (int g = 0; g < active.length; g++) {
            active[g] += o.active[g];
            idle[g] += o.idle[g];
        }
    }
}
