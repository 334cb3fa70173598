package org.dsmscope.cdat;

import static org.dsmscope.cdat.CacheArray.EXCLUSIVE;
import static org.dsmscope.cdat.CacheArray.INVALID;
import static org.dsmscope.cdat.CacheArray.MODIFIED;
import static org.dsmscope.cdat.CacheArray.SHARED;

import org.dsmscope.cdat.config.CdatConfig;
import org.dsmscope.trace.cdat.Txn;
import org.dsmscope.trace.cdat.TrafficWriter;

/**
 * The simulated machine (SPEC §6): processors with data and instruction caches, grouped in nodes; each line's home
 * node (its page's, {@link Placement}) keeps a directory entry with the line's status (idle, shared, exclusive,
 * dirty: Appendix C's codes 1..4) and a sharing list of processors. A miss sends a processor request to the home;
 * what follows is fixed by the line's status, the owner's cache and the protocol variant ({@link Protocol}). Within a
 * node, a processor holding the line modified answers a request by snooping ({@code update_data} to the home). Every
 * other coherence action goes through the directory. The sequences (x = the request; "direct" = variants 1 5 7 8;
 * critical path in brackets; the module README's "Transactions" has the full table):
 *
 * <pre>
 * load miss 02, idle:      02 12 (exclusive) if home local or variant 1 4 5 6, else 02 11              [2]
 * fetch miss 01, idle:     01 11                                                                         [2]
 * store miss 03, idle:     03 12                                                                         [2]
 * 01/02, shared:           x 11                                                                          [2]
 * 03, shared:              03 (34 53 per sharer) 12                                      [4; 2 without sharers]
 * store hit on shared 04:  04 (34 53 per sharer) 13                                      [4; 2 without sharers]
 * owner modified in node:  x 22                                                                          [2]
 * owner modified:          direct: 01/02: x 31/32 41 51, 03: 03 33 43 52 [3]; else x 3x 56 11/12         [4]
 * owner exclusive (clean): x 3x 54 11/12 [4];  owner dropped it silently: x 3x 55 11/12                  [4]
 * replacement:             modified 21; exclusive 23 (variants 1 2 6 8) or silent; shared silent
 * I/O disk read 06:        06 (34 53 per copy) 14 [4; 2];  disk write 05: as 01 without joining, 05 ... 11
 * interconnect cache hit:  no transaction
 * </pre>
 *
 * <p>Counting goes to {@link #counters}; transactions, when asked for, to the detailed trace and requests and returns
 * to the general trace of their processor. With versions on, every load is checked to see the latest store ({@link
 * CoherenceChecker}).
 */
final class Machine {
    static final byte IDLE = 1;
    static final byte DIR_SHARED = 2;
    static final byte DIR_EXCLUSIVE = 3;
    static final byte DIRTY = 4;

    private static final int SRC_LOCAL_MEMORY = Counters.LOCAL_MEMORY;
    private static final int SRC_LOCAL_CACHE = Counters.LOCAL_CACHE;
    private static final int SRC_REMOTE_MEMORY = Counters.REMOTE_MEMORY;
    private static final int SRC_REMOTE_CACHE = Counters.REMOTE_CACHE;

    final CdatConfig cfg;
    final Protocol proto;
    final int processors;
    final int ppn;
    final int banks;
    final int lineShift;
    final int pageShift;
    final CacheArray[] dcache;
    final CacheArray[] icache;
    final boolean versions;
    final Placement placement;

    /** Directory entries the table starts with room for in a serial run (a partition: its share), grown by doubling. */
    static final int DIRECTORY_START = 1 << 14;
    /** log2 of the lines per block of directory entries ({@link BlockIndex}). */
    static final int DIRECTORY_BLOCK_BITS = 4;

    // the directory: one entry per line (per line and node for replicated pages), numbered by blocks of neighbouring
    // lines (in a partition, of its own lines), so that neighbouring lines' entries lie together
    private final BlockIndex dir;
    /** The sets this machine simulates (null: every set): its lines are numbered among themselves. */
    private final CacheArray.Deal deal;
    /** True if a page can be replicated (RR2, Oracle): an entry's key then depends on the page. */
    private final boolean mayReplicate;
    private final int pageOfLine;
    private int entries;
    byte[] status = new byte[16];
    long[] sharers = new long[32];
    int[] home = new int[16];
    long[] lineOf = new long[16];
    long[] memVersion;
    long[] latest;
    /** Per entry: the nodes whose interconnect cache the directory lists (bit n), kept like a sharer. */
    int[] icNodes = new int[16];
    /** The interconnect cache of each node (null: none), holding clean copies of lines homed elsewhere. */
    final CacheArray[] ic;

    private boolean lastReplicated;
    private final long[][] nodeMask;
    /** Per processor: its node and its number in the node (no division on the way of a miss). */
    private final int[] nodeOf;
    private final int[] slotOf;
    /** banks_per_node - 1 if it is a power of two (a line's bank is then its low bits), else -1. */
    private final int bankMask;
    private final long[] before = new long[2];
    private final int[] ioNode;

    Counters counters;
    TrafficWriter detailed;
    /** General trace files: processors 0..P-1, then the I/O processors. */
    TrafficWriter[] general;
    /** In a partitioned run with traffic traces: the steps of the records written (else null). */
    TrafficOrder order;

    /** Set by {@link #obtain}: the state the requester gets and the data's version. */
    private byte got;
    private long gotVersion;
    private int source;

    Machine(CdatConfig cfg, boolean versions, boolean hpux, int ioProcessors, int[] ioProcessorNode) {
        this(cfg, versions, hpux, ioProcessors, ioProcessorNode, null);
    }

    /** The machine of a partition: its caches hold the sets {@code deal} gives it (null: every set). */
    Machine(CdatConfig cfg, boolean versions, boolean hpux, int ioProcessors, int[] ioProcessorNode,
            CacheArray.Deal deal) {
        this.cfg = cfg;
        this.proto = new Protocol(cfg.protocol);
        this.processors = cfg.processors();
        this.ppn = cfg.processorsPerNode;
        this.banks = cfg.banksPerNode;
        this.lineShift = Integer.numberOfTrailingZeros(cfg.lineSize);
        this.pageShift = Integer.numberOfTrailingZeros(cfg.pageSize);
        this.versions = versions;
        this.placement = new Placement(cfg.pagePolicy, cfg.nodes, pageShift, hpux);
        this.dir = new BlockIndex(DIRECTORY_BLOCK_BITS, deal == null ? DIRECTORY_START : deal.share(DIRECTORY_START));
        this.deal = deal;
        this.mayReplicate = placement.replicates();
        this.pageOfLine = pageShift - lineShift;
        dcache = new CacheArray[processors];
        icache = new CacheArray[processors];
        for (int g = 0; g < processors; g++) {
            dcache[g] = new CacheArray(cfg.dataCache, versions, deal);
            icache[g] = new CacheArray(cfg.instructionCache, versions, deal);
        }
        ic = cfg.interconnectCache == null ? null : new CacheArray[cfg.nodes];
        if (ic != null) {
            for (int n = 0; n < cfg.nodes; n++) {
                ic[n] = new CacheArray(cfg.interconnectCache, versions, deal);
            }
        }
        memVersion = versions ? new long[16] : null;
        latest = versions ? new long[16] : null;
        nodeMask = new long[cfg.nodes][2];
        nodeOf = new int[processors];
        slotOf = new int[processors];
        for (int g = 0; g < processors; g++) {
            nodeMask[g / ppn][g >>> 6] |= 1L << g;
            nodeOf[g] = g / ppn;
            slotOf[g] = g % ppn;
        }
        bankMask = Integer.bitCount(banks) == 1 ? banks - 1 : -1;
        this.ioNode = ioProcessorNode.clone();
        if (ioProcessorNode.length != ioProcessors) {
            throw new IllegalArgumentException("one node per I/O processor");
        }
        counters = new Counters(processors);
    }

    // ---- the directory ----

    /**
     * The directory entry of line {@code ln} as seen from {@code node}, made idle if new. Where no page is replicated
     * the key is the line alone, and its page is placed when its first line gets an entry (a placed page keeps its
     * home, so later lookups need no placement); else the placement says first whether the page is replicated (then
     * the key is the line and the node).
     */
    int entry(long ln, int node) {
        long local = deal == null ? ln : deal.line(ln);
        if (!mayReplicate) {
            lastReplicated = false;
            int id = dir.id(local);
            if (id >= status.length || status[id] == 0) {
                create(id, ln, placement.home(ln >>> pageOfLine, node));
            }
            return id;
        }
        int h = placement.home(ln >>> pageOfLine, node);
        lastReplicated = placement.replicated;
        int id = dir.id(lastReplicated ? ~(local | (long) node << 58) : local);
        if (id >= status.length || status[id] == 0) {
            create(id, ln, h);
        }
        return id;
    }

    /** A new idle entry {@code id} of line {@code ln} homed at {@code h}; the arrays hold every id given. */
    private void create(int id, long ln, int h) {
        int n = dir.capacity();
        if (n > status.length) {
            status = LongIndex.fit(status, n);
            home = LongIndex.fit(home, n);
            lineOf = LongIndex.fit(lineOf, n);
            sharers = LongIndex.fit(sharers, 2 * n);
            icNodes = LongIndex.fit(icNodes, n);
            if (versions) {
                memVersion = LongIndex.fit(memVersion, n);
                latest = LongIndex.fit(latest, n);
            }
        }
        status[id] = IDLE;
        home[id] = h;
        lineOf[id] = ln;
        entries++;
    }

    /** One more than the largest entry number (entries not made have status 0). */
    int entryCapacity() {
        return dir.capacity();
    }

    private boolean has(int id, int g) {
        return (sharers[2 * id + (g >>> 6)] & 1L << g) != 0;
    }

    private void addSharer(int id, int g) {
        sharers[2 * id + (g >>> 6)] |= 1L << g;
    }

    private void removeSharer(int id, int g) {
        sharers[2 * id + (g >>> 6)] &= ~(1L << g);
    }

    private void onlySharer(int id, int g) {
        sharers[2 * id] = 0;
        sharers[2 * id + 1] = 0;
        icNodes[id] = 0;
        addSharer(id, g);
    }

    /** Processors and interconnect caches the directory lists for entry {@code id}. */
    private int sharerCount(int id) {
        return Long.bitCount(sharers[2 * id]) + Long.bitCount(sharers[2 * id + 1]) + Integer.bitCount(icNodes[id]);
    }

    private int owner(int id) {
        long a = sharers[2 * id];
        return a != 0 ? Long.numberOfTrailingZeros(a) : 64 + Long.numberOfTrailingZeros(sharers[2 * id + 1]);
    }

    private long addr(long ln) {
        return ln << lineShift;
    }

    private int bank(long ln) {
        return bankMask >= 0 ? (int) ln & bankMask : (int) (ln % banks);
    }

    // ---- counting and traces ----

    private void tx(long clock, long ln, int code, int a, int b, int c, int d) {
        counters.transactions[code]++;
        if (detailed != null) {
            detailed.detailed(clock, addr(ln), code, a, b, c, d);
            if (order != null) {
                order.wrote(0);
            }
        }
    }

    /**
     * A processor request or return by processor {@code g} (I/O processor k: g = -1 - k): the transaction, its
     * general record (status and sharing list before it), and its state-table cell.
     */
    private void request(long clock, long ln, int code, int g, int node, int id) {
        int h = home[id];
        int bank = bank(ln);
        int proc = g >= 0 ? slotOf[g] : g;
        byte st = status[id];
        tx(clock, ln, code, proc, node, bank, h);
        if (general != null) {
            int file = g >= 0 ? g : processors - 1 - g;
            general[file].general(clock, addr(ln), code, proc, node, bank, h, st, sharers(id), processors);
            if (order != null) {
                order.wrote(1 + file);
            }
        }
        long s0 = sharers[2 * id];
        long s1 = sharers[2 * id + 1];
        if (g >= 0) {
            if (g < 64) {
                s0 &= ~(1L << g);
            } else {
                s1 &= ~(1L << g);
            }
        }
        int presence;
        if ((s0 & nodeMask[node][0]) != 0 || (s1 & nodeMask[node][1]) != 0) {
            presence = 0;
        } else if (s0 != 0 || s1 != 0) {
            presence = 1;
        } else {
            presence = 2;
        }
        if (presence == 1 && st == DIR_SHARED) {
            counters.remoteSharedRequests++;
            counters.remoteSharedSharers += Long.bitCount(s0) + Long.bitCount(s1);
        }
        counters.stateTable[Counters.row(h != node, presence, st)][Counters.columnOf(code)]++;
        if (code <= Txn.WRITE_PURGE) {
            counters.requests++;
            if (lastReplicated && (code == Txn.READ_PRIV_OWN || code == Txn.REQ_INV)) {
                counters.replicatedStores++;
            }
        }
    }

    private long[] sharers(int id) {
        before[0] = sharers[2 * id];
        before[1] = sharers[2 * id + 1];
        return before;
    }

    private void satisfied(int stream, int node, int src) {
        long[] f = counters.streams[stream];
        f[src]++;
        f[src == SRC_LOCAL_MEMORY || src == SRC_LOCAL_CACHE ? Counters.MISS_LOCAL : Counters.MISS_REMOTE]++;
    }

    private int memorySource(int id, int node) {
        return home[id] == node ? SRC_LOCAL_MEMORY : SRC_REMOTE_MEMORY;
    }

    private int cacheSource(int o, int node) {
        return nodeOf[o] == node ? SRC_LOCAL_CACHE : SRC_REMOTE_CACHE;
    }

    // ---- the processors' accesses ----

    /** A load or store by processor {@code g} of line {@code ln}. */
    void data(int g, long clock, long ln, boolean store) {
        CacheArray c = dcache[g];
        int w = c.find(ln);
        if (w >= 0) {
            counters.streams[Counters.DATA][Counters.HIT]++;
            c.touch(w);
            byte s = c.state[w];
            if (!store) {
                if (versions) {
                    CoherenceChecker.load(this, g, ln, c.version[w]);
                }
                return;
            }
            if (s != MODIFIED) {
                if (s == SHARED) {
                    upgrade(g, clock, ln);
                }
                c.state[w] = MODIFIED;
                icache[g].invalidate(ln);
            }
            if (versions) {
                c.version[w] = CoherenceChecker.store(this, g, ln);
            }
            return;
        }
        counters.streams[Counters.DATA][Counters.MISS]++;
        w = fill(g, c, clock, ln);
        obtain(g, clock, ln, store ? Txn.READ_PRIV_OWN : Txn.READ_SHAR_OR_PRIV, Counters.DATA);
        c.state[w] = got;
        if (store) {
            c.state[w] = MODIFIED;
            icache[g].invalidate(ln);
        }
        if (versions) {
            c.version[w] = gotVersion;
            if (store) {
                c.version[w] = CoherenceChecker.store(this, g, ln);
            } else {
                CoherenceChecker.load(this, g, ln, gotVersion);
            }
        }
    }

    /**
     * An instruction fetch by processor {@code g} from line {@code ln}: {@code count} (at least 1) consecutive
     * instructions of the line, the first at {@code clock}.
     */
    void fetch(int g, long clock, long ln, long count) {
        CacheArray c = icache[g];
        long[] f = counters.streams[Counters.INSTRUCTION];
        int w = c.find(ln);
        if (w >= 0) {
            f[Counters.HIT] += count;
            c.touch(w);
            if (versions) {
                CoherenceChecker.load(this, g, ln, c.version[w]);
            }
            return;
        }
        f[Counters.MISS]++;
        f[Counters.HIT] += count - 1;
        w = fill(g, c, clock, ln);
        obtain(g, clock, ln, Txn.READ_SHAR, Counters.INSTRUCTION);
        c.state[w] = SHARED;
        if (versions) {
            c.version[w] = gotVersion;
            CoherenceChecker.load(this, g, ln, gotVersion);
        }
    }

    /** Makes room for {@code ln} in cache {@code c} of {@code g}: the victim's return, if any. */
    private int fill(int g, CacheArray c, long clock, long ln) {
        int w = c.fill(ln, INVALID); // the state is set once the request is answered
        byte vs = c.victimState;
        if (vs == MODIFIED || vs == EXCLUSIVE && proto.announceExclusive) {
            long v = c.victimLine;
            int node = nodeOf[g];
            int id = entry(v, node);
            request(clock, v, vs == MODIFIED ? Txn.WRITE_BACK : Txn.UPDATE_TAG, g, node, id);
            if (vs == MODIFIED && versions) {
                memVersion[id] = c.victimVersion;
            }
            removeSharer(id, g);
            status[id] = sharerCount(id) == 0 ? IDLE : DIR_SHARED;
        }
        return w;
    }

    /** Store hit on a shared line: {@code req_inv}, an {@code inv} and an {@code inv_done} per other sharer, then
     * {@code alloc_done}. */
    private void upgrade(int g, long clock, long ln) {
        int node = nodeOf[g];
        int id = entry(ln, node);
        request(clock, ln, Txn.REQ_INV, g, node, id);
        int h = home[id];
        int b = bank(ln);
        boolean any = invalidateOthers(clock, ln, id, g, h, b);
        tx(clock, ln, Txn.ALLOC_DONE, b, h, slotOf[g], node);
        counters.criticalPath += any ? 4 : 2;
        status[id] = DIRTY;
        onlySharer(id, g);
    }

    /** An {@code inv} and an {@code inv_done} for every sharer but {@code g}; true if there was one. */
    private boolean invalidateOthers(long clock, long ln, int id, int g, int h, int b) {
        boolean any = false;
        for (int k = 0; k < 2; k++) {
            long bits = sharers[2 * id + k];
            while (bits != 0) {
                int s = 64 * k + Long.numberOfTrailingZeros(bits);
                bits &= bits - 1;
                if (s == g) {
                    continue;
                }
                any = true;
                int sn = nodeOf[s];
                tx(clock, ln, Txn.INV, b, h, slotOf[s], sn);
                dcache[s].invalidate(ln);
                icache[s].invalidate(ln);
                tx(clock, ln, Txn.INV_DONE, slotOf[s], sn, b, h);
            }
        }
        for (int bits = icNodes[id]; bits != 0; bits &= bits - 1) {
            // an interconnect cache (processor number processors_per_node of its node); the node's processors
            // that took the line from it drop it too (they are on its bus, not in the sharing list)
            int n = Integer.numberOfTrailingZeros(bits);
            any = true;
            tx(clock, ln, Txn.INV, b, h, ppn, n);
            ic[n].invalidate(ln);
            for (int q = n * ppn; q < (n + 1) * ppn; q++) {
                if (q != g && !has(id, q)) {
                    dcache[q].invalidate(ln);
                    icache[q].invalidate(ln);
                }
            }
            tx(clock, ln, Txn.INV_DONE, ppn, n, b, h);
        }
        icNodes[id] = 0;
        return any;
    }

    /**
     * A miss of processor {@code g} ({@code req}: read_shar, read_shar_or_priv or read_priv_own): the request and
     * what the line's status makes of it; leaves the requester's state in {@link #got}.
     */
    private void obtain(int g, long clock, long ln, int req, int stream) {
        int node = nodeOf[g];
        int id = entry(ln, node);
        if (ic != null && home[id] != node) {
            if (req != Txn.READ_PRIV_OWN) {
                int w = ic[node].find(ln);
                if (w >= 0) {
                    // the node's interconnect cache answers on the node's bus: nothing reaches the interconnect
                    ic[node].touch(w);
                    got = SHARED;
                    if (versions) {
                        gotVersion = ic[node].version[w];
                    }
                    counters.interconnectHits++;
                    satisfied(stream, node, SRC_LOCAL_CACHE);
                    return;
                }
            }
            obtainFromHome(g, clock, ln, req, stream, node, id);
            if (got == SHARED) {
                int w = ic[node].find(ln);
                if (w < 0) {
                    w = ic[node].fill(ln, SHARED); // a clean victim leaves silently: its bit stays listed
                }
                if (versions) {
                    ic[node].version[w] = gotVersion;
                }
                icNodes[id] |= 1 << node;
            }
            return;
        }
        obtainFromHome(g, clock, ln, req, stream, node, id);
    }

    private void obtainFromHome(int g, long clock, long ln, int req, int stream, int node, int id) {
        request(clock, ln, req, g, node, id);
        int h = home[id];
        int b = bank(ln);
        int p = slotOf[g];
        byte st = status[id];
        boolean own = req == Txn.READ_PRIV_OWN;
        if (st == DIR_EXCLUSIVE || st == DIRTY) {
            int o = owner(id);
            if (o != g) {
                recall(g, clock, ln, id, o, req, stream);
                return;
            }
            byte mine = dcache[o].stateOf(ln);
            if (mine != INVALID) {
                // the requester's other cache holds it (an instruction miss on a line its data cache owns)
                selfSupply(g, clock, ln, id, own, stream);
                return;
            }
            st = IDLE; // the owner dropped its clean copy without telling (exclusive replacement not announced)
        }
        int crit = 2;
        if (st == DIR_SHARED && !own) {
            tx(clock, ln, Txn.DATA_SHAR, b, h, p, node);
            addSharer(id, g);
            got = SHARED;
        } else if (st == DIR_SHARED) {
            crit = invalidateOthers(clock, ln, id, g, h, b) ? 4 : 2;
            tx(clock, ln, Txn.DATA_PRIV, b, h, p, node);
            status[id] = DIRTY;
            onlySharer(id, g);
            got = MODIFIED;
        } else if (own) {
            tx(clock, ln, Txn.DATA_PRIV, b, h, p, node);
            status[id] = DIRTY;
            onlySharer(id, g);
            got = MODIFIED;
        } else if (req == Txn.READ_SHAR || h != node && !proto.remoteExclusive) {
            tx(clock, ln, Txn.DATA_SHAR, b, h, p, node);
            status[id] = DIR_SHARED;
            onlySharer(id, g);
            got = SHARED;
        } else {
            tx(clock, ln, Txn.DATA_PRIV, b, h, p, node);
            status[id] = DIR_EXCLUSIVE;
            onlySharer(id, g);
            got = EXCLUSIVE;
        }
        if (versions) {
            gotVersion = memVersion[id];
        }
        counters.criticalPath += crit;
        satisfied(stream, node, memorySource(id, node));
    }

    /** The requester's own data cache holds the line an instruction fetch (or the reverse) missed on. */
    private void selfSupply(int g, long clock, long ln, int id, boolean own, int stream) {
        int node = nodeOf[g];
        CacheArray d = dcache[g];
        int w = d.find(ln);
        if (versions) {
            gotVersion = d.version[w];
        }
        if (!own && d.state[w] == MODIFIED) {
            tx(clock, ln, Txn.UPDATE_DATA, slotOf[g], node, bank(ln), home[id]);
            if (versions) {
                memVersion[id] = d.version[w];
            }
        }
        d.state[w] = SHARED;
        status[id] = DIR_SHARED;
        got = SHARED;
        counters.criticalPath += 2;
        satisfied(stream, node, SRC_LOCAL_CACHE);
    }

    /**
     * The line is exclusive or dirty at another processor {@code o}. In the requester's node a modified copy answers
     * by snooping ({@code update_data}); otherwise the home recalls it and the owner answers as its cache's state
     * and the protocol's direct transactions decide.
     */
    private void recall(int g, long clock, long ln, int id, int o, int req, int stream) {
        int node = nodeOf[g];
        int p = slotOf[g];
        int h = home[id];
        int b = bank(ln);
        int on = nodeOf[o];
        int op = slotOf[o];
        boolean own = req == Txn.READ_PRIV_OWN;
        CacheArray oc = dcache[o];
        int ow = oc.find(ln);
        byte os = ow < 0 ? INVALID : oc.state[ow];
        long overs = ow >= 0 && versions ? oc.version[ow] : 0;
        if (os == MODIFIED && on == node) {
            tx(clock, ln, Txn.UPDATE_DATA, op, on, b, h);
            settle(id, g, o, oc, ow, own, overs, true);
            counters.criticalPath += 2;
            satisfied(stream, node, SRC_LOCAL_CACHE);
            return;
        }
        int recallCode = req == Txn.READ_SHAR ? Txn.RECALL_SHAR
                : req == Txn.READ_SHAR_OR_PRIV ? Txn.RECALL_SHAR_OR_PRIV : Txn.RECALL_PRIV_OWN;
        tx(clock, ln, recallCode, b, h, op, on);
        if (os == MODIFIED) {
            if (proto.direct) {
                tx(clock, ln, own ? Txn.C2C_DATA_PRIV_OWN : Txn.C2C_DATA_SHAR, op, on, p, node);
                tx(clock, ln, own ? Txn.RECALL_C2C_DONE : Txn.RECALL_C2C_DATA, op, on, b, h);
                settle(id, g, o, oc, ow, own, overs, !own);
                counters.criticalPath += 3;
            } else {
                tx(clock, ln, Txn.RECALL_DATA, op, on, b, h);
                tx(clock, ln, own ? Txn.DATA_PRIV : Txn.DATA_SHAR, b, h, p, node);
                settle(id, g, o, oc, ow, own, overs, true);
                counters.criticalPath += 4;
            }
            satisfied(stream, node, cacheSource(o, node));
            return;
        }
        if (os == EXCLUSIVE || os == SHARED) {
            // clean: memory is current
            tx(clock, ln, Txn.RECALL_NACK_SHAR, op, on, b, h);
            tx(clock, ln, own ? Txn.DATA_PRIV : Txn.DATA_SHAR, b, h, p, node);
            settle(id, g, o, oc, ow, own, versions ? memVersion[id] : 0, false);
        } else {
            // the owner dropped its clean copy without telling
            tx(clock, ln, Txn.RECALL_NACK_INV, op, on, b, h);
            tx(clock, ln, own ? Txn.DATA_PRIV : Txn.DATA_SHAR, b, h, p, node);
            removeSharer(id, o);
            settle(id, g, -1, null, -1, own, versions ? memVersion[id] : 0, false);
        }
        counters.criticalPath += 4;
        satisfied(stream, node, memorySource(id, node));
    }

    /**
     * After a recall or snoop: the owner {@code o} (if any) keeps a shared copy or none, the requester gets a
     * shared or modified one; {@code toMemory}: the data reached the home, whose copy is current again.
     */
    private void settle(int id, int g, int o, CacheArray oc, int ow, boolean own, long version, boolean toMemory) {
        if (versions) {
            gotVersion = version;
            if (toMemory) {
                memVersion[id] = version;
            }
        }
        if (own) {
            if (oc != null) {
                oc.state[ow] = INVALID;
                icache[o].invalidate(lineOf[id]);
            }
            status[id] = DIRTY;
            onlySharer(id, g);
            got = MODIFIED;
        } else {
            if (oc != null) {
                oc.state[ow] = SHARED;
            }
            status[id] = DIR_SHARED;
            if (o < 0) {
                onlySharer(id, g);
            } else {
                addSharer(id, g);
            }
            got = SHARED;
        }
    }

    // ---- I/O processors (-handle_io) ----

    /**
     * I/O processor {@code k} stores line {@code ln} (a disk read into memory): {@code write_purge}, an {@code inv}
     * and an {@code inv_done} per cached copy (a dirty copy is dropped: the disk's data replaces it), then
     * {@code write_purge_done}.
     */
    void ioStore(int k, long clock, long ln) {
        int node = ioNode[k];
        int g = -1 - k;
        int id = entry(ln, node);
        counters.streams[Counters.IO][Counters.MISS]++;
        request(clock, ln, Txn.WRITE_PURGE, g, node, id);
        int h = home[id];
        int b = bank(ln);
        boolean any = invalidateOthers(clock, ln, id, -1, h, b);
        tx(clock, ln, Txn.WRITE_PURGE_DONE, b, h, g, node);
        sharers[2 * id] = 0;
        sharers[2 * id + 1] = 0;
        status[id] = IDLE;
        if (versions) {
            memVersion[id] = CoherenceChecker.ioStore(this, id);
        }
        counters.criticalPath += any ? 4 : 2;
        satisfied(Counters.IO, node, memorySource(id, node));
    }

    /**
     * I/O processor {@code k} loads line {@code ln} (a disk write from memory): {@code read_current}; a modified copy
     * is recalled as for {@code read_shar} (its owner keeps a shared copy), then the data; the I/O processor does
     * not join the sharing list.
     */
    void ioLoad(int k, long clock, long ln) {
        int node = ioNode[k];
        int g = -1 - k;
        int id = entry(ln, node);
        counters.streams[Counters.IO][Counters.MISS]++;
        request(clock, ln, Txn.READ_CURRENT, g, node, id);
        int h = home[id];
        int b = bank(ln);
        byte st = status[id];
        if (st == DIR_EXCLUSIVE || st == DIRTY) {
            int o = owner(id);
            CacheArray oc = dcache[o];
            int ow = oc.find(ln);
            if (ow >= 0 && oc.state[ow] == MODIFIED) {
                int on = nodeOf[o];
                int op = slotOf[o];
                tx(clock, ln, Txn.RECALL_SHAR, b, h, op, on);
                if (proto.direct) {
                    tx(clock, ln, Txn.C2C_DATA_SHAR, op, on, g, node);
                    tx(clock, ln, Txn.RECALL_C2C_DATA, op, on, b, h);
                    counters.criticalPath += 3;
                } else {
                    tx(clock, ln, Txn.RECALL_DATA, op, on, b, h);
                    tx(clock, ln, Txn.DATA_SHAR, b, h, g, node);
                    counters.criticalPath += 4;
                }
                oc.state[ow] = SHARED;
                status[id] = DIR_SHARED;
                if (versions) {
                    memVersion[id] = oc.version[ow];
                    CoherenceChecker.ioLoad(this, id, oc.version[ow]);
                }
                satisfied(Counters.IO, node, cacheSource(o, node));
                return;
            }
        }
        tx(clock, ln, Txn.DATA_SHAR, b, h, g, node);
        if (versions) {
            CoherenceChecker.ioLoad(this, id, memVersion[id]);
        }
        counters.criticalPath += 2;
        satisfied(Counters.IO, node, memorySource(id, node));
    }

    /** A status record of processor {@code g} in its general trace. */
    void status(int g, long clock, int code) {
        if (general != null) {
            before[0] = 0;
            before[1] = 0;
            general[g].general(clock, 0, code, g % ppn, g / ppn, 0, 0, 0, before, processors);
            if (order != null) {
                order.wrote(1 + g);
            }
        }
    }

    /** Number of directory entries (lines referenced, per node for replicated pages). */
    int lines() {
        return entries;
    }
}
