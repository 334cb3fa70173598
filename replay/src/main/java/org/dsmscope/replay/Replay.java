package org.dsmscope.replay;

import java.util.ArrayList;
import java.util.List;
import java.util.function.IntFunction;
import org.dsmscope.trace.BadInputException;
import org.dsmscope.trace.TraceReader;
import org.dsmscope.trace.TraceSet;

/**
 * The replay engine (seed 000 §3, seed 001 §3 and §5.3, SPEC §4): streams a trace set, interleaves its traces by
 * pseudo clock and feeds every record to the plugged-in {@link Analysis analyses}. Thread traces replay with
 * phases and synchronization ({@code ThreadEngine}); with {@code -i p} the traces are processes whose slices the
 * {@link SliceScheduler} places on p processors ({@code SliceEngine}).
 *
 * <p>Before the replay a {@code Prescan} pass streams every trace once to learn the synchronization variables,
 * the run's first call time and the call-trace match (and, for {@code -i}, the slices). Bad traces, deadlocks and
 * inconsistent call traces throw {@link BadInputException}; with {@link ReplayOptions#skipBadRecords} the replay
 * continues past them, {@link #problems()} lists what it passed, and analyses get results for what could be
 * replayed. Not thread-safe: one replay runs on one thread.
 */
public final class Replay implements ReplayContext {
    private final TraceSet detailed;
    private final TraceSet calls;
    private final ReplayOptions o;
    private final List<Analysis> analyses = new ArrayList<>();
    /** On-the-fly input (null: the trace files of {@link #detailed}, prescanned). */
    private final Source source;
    /** A live replay's sources, one per partition ({@link #live(TraceSet, List, ReplayOptions)}); else null. */
    private List<Source> partitionSources;
    private final Problems problems = new Problems();
    private Prescan pre;
    private ThreadEngine threads;
    private SliceEngine slices;
    private long replayed;
    /** What {@link #progress} reads while the replay runs: the engine's count, once the engine exists. */
    private volatile java.util.function.LongSupplier counter;
    /** {@link #expectedRecords}, once the prescan has run. */
    private volatile long expected = -1;
    private int partition;
    private int partitions = 1;
    /** The symbol sidecar read once for every partition ({@link #runInPartitions}), if {@link #symbolsRead}. */
    private org.dsmscope.trace.sidecar.SymbolFile symbols;
    private boolean symbolsRead;
    /**
     * A routed partition: thread t's routed stream, words from the router's pipes ({@link #runRouted}: a {@link
     * org.dsmscope.trace.WordChannel}) or bytes given ({@link #runPartition(Plan, int, Analysis, IntFunction)}: a
     * {@code ReadableByteChannel}); else null.
     */
    private IntFunction<?> routedSources;
    /** This replay runs (or ran last) as a partition of a routed replay ({@link #routed()}). */
    private boolean routedPart;
    /**
     * System property: the router threads of a routed run (default: one per partition, at most one per trace file);
     * any number from 1 routes the same records (replay/README.md "Partitioned replay").
     */
    public static final String ROUTERS_PROPERTY = "dsmscope.routers";

    /**
     * How many partitions of a routed run over trace files replay at once (by default one per core the JVM may use,
     * {@link CoreTurns}; 0: all); the partitions see the same either way (tests make it 1 or 2).
     */
    public Replay partitionsAtOnce(int n) {
        partitionsAtOnce = Math.max(0, n);
        return this;
    }

    /**
     * What the analyses and router of the next partitioned run over trace files use of the prescan besides the
     * schedule (both by default): {@code spins}, the threads that may spin and the stores to watch, which a router's
     * {@link Router#spinPartition} is given ({@link SpinRoutes}); {@code profile}, the {@link #workProfile}. A caller
     * whose router detects no spins and whose analyses and router read no work profile (CDAT) spares the prescan a
     * look at every load and at every 8th record; a routed run whose router then names a spin partition fails.
     */
    public Replay prescanFor(boolean spins, boolean profile) {
        spinsNeeded = spins;
        profileNeeded = profile;
        return this;
    }

    /** {@link #prescanFor}. */
    private boolean spinsNeeded = true;
    private boolean profileNeeded = true;
    /** How the last partitioned run ran: {@link #MODE_ROUTED}, {@link #MODE_REPLAYS}, or null. */
    private String mode;
    /** Bytes a routed pipe holds before its router waits for the partition ({@link #runRouted}); -1: automatic. */
    private long routedCapacity = -1;
    /** Partitions of a routed run over files that replay at once ({@link CoreTurns}); -1: one per core. */
    private int partitionsAtOnce = -1;

    /** A replay of {@code detailed}, with call times from {@code callsOrNull} when given. */
    public Replay(TraceSet detailed, TraceSet callsOrNull, ReplayOptions o) {
        o.validate();
        if (callsOrNull != null && callsOrNull.size() != detailed.size()) {
            throw new BadInputException("the call traces " + callsOrNull.base() + " have " + callsOrNull.size()
                    + " files but the detailed traces " + detailed.base() + " have " + detailed.size()
                    + ": they must come from runs with the same number of threads");
        }
        this.detailed = detailed;
        this.calls = callsOrNull;
        this.o = o;
        this.source = null;
    }

    /**
     * Traces that are analysed while they are produced (on-the-fly analysis, seed 000 §2 {@code to_ciat}): thread
     * t's records arrive through {@link #channel(int)}, whose reads block until the producer hands over more (-1 at
     * the thread's end), and what the {@code Prescan} pass learns from whole files comes from the producer instead.
     */
    public interface Source {
        /** Thread t's SMAIT record stream (extended or classic, uncompressed or compressed as a file would be). */
        java.nio.channels.ReadableByteChannel channel(int thread);

        /** µs of the run's first call record (the smallest first call start time); asked once every stream is open. */
        long firstCallTime();

        /** Whether thread t's trace holds instruction-fetch extension records (it must say so before they come). */
        boolean hasFetch(int thread);

        /** {@link ReplayContext#isSyncVariable} for an access being replayed now (any thread may ask). */
        boolean isSyncVariable(long address);

        /**
         * True if a read of a channel into a buffer that already holds at least 48 bytes returns 0 instead of
         * waiting when nothing has arrived (the agent's streams do): a routed live replay then waits for a stream
         * only while a partition needs its records ({@code LiveIntake}). Default false: reads may wait.
         */
        default boolean polls() {
            return false;
        }
    }

    /**
     * An on-the-fly replay of {@code named.size()} thread traces read from {@code source} (the files of {@code
     * named} are only names: for outputs and messages). No call traces and no {@code -i} (their prescan needs whole
     * traces): those throw {@link BadInputException}.
     */
    public static Replay live(TraceSet named, Source source, ReplayOptions o) {
        return new Replay(named, o, source);
    }

    /**
     * An on-the-fly replay that can run in {@code sources.size()} partitions ({@link #runInPartitions}): partition k
     * reads its own copy of every thread's records from {@code sources.get(k)} (the producer hands each record to
     * every source). Run serially ({@link #run}), it reads {@code sources.get(0)}.
     */
    public static Replay live(TraceSet named, List<Source> sources, ReplayOptions o) {
        Replay r = new Replay(named, o, sources.get(0));
        r.partitionSources = List.copyOf(sources);
        return r;
    }

    private Replay(TraceSet named, ReplayOptions o, Source source) {
        o.validate();
        if (o.interleave > 0) {
            throw new BadInputException("-i " + o.interleave + " needs every trace's synchronization skeleton before"
                    + " the replay starts: not available while the program runs (analyse trace files instead)");
        }
        this.detailed = named;
        this.calls = null;
        this.o = o;
        this.source = source;
    }

    /** Plugs in an analysis (before {@link #run()}); returns this replay. */
    public Replay add(Analysis a) {
        analyses.add(a);
        return this;
    }

    /** Replays the traces once, feeding every analysis. Throws {@link BadInputException} on bad input. */
    public void run() {
        int n = detailed.size();
        boolean interleaved = o.interleave > 0;
        if (pre == null && source == null) {
            pre = new Prescan(n, o, problems);
            for (Analysis a : analyses) {
                if (a.wantsWorkProfile()) {
                    pre.countWork();
                    break;
                }
            }
            pre.run(detailed, calls, interleaved);
        }
        expect();
        Analysis[] an = analyses.toArray(new Analysis[0]);
        TraceReader[] rd = new TraceReader[n];
        TraceReader[] crd = calls == null ? null : new TraceReader[n];
        try {
            for (int t = 0; t < n; t++) {
                String name = detailed.files().get(t).toString();
                rd[t] = routedSources != null ? Readers.routed(routedSources.apply(t), name, source != null)
                        : source != null ? Readers.live(source.channel(t), name, o)
                        : Prescan.open(detailed.files().get(t), o, Prescan.REPLAY_BUFFER);
                if (crd != null && pre.usableCalls[t] > 0) {
                    crd[t] = Prescan.open(calls.files().get(t), o);
                }
            }
            CallTimes times = source != null ? new CallTimes(null, new long[n], source.firstCallTime(), n)
                    : new CallTimes(crd, pre.usableCalls, pre.t0, n);
            for (Analysis a : an) {
                a.begin(this);
            }
            PhaseTimes total;
            if (interleaved) {
                slices = new SliceEngine(this, an, rd, times, pre);
                SliceEngine se = slices;
                counter = () -> se.replayed;
                slices.run();
                total = slices.total;
                replayed = slices.replayed;
            } else {
                CodeMap code = source == null && o.exactStream
                        ? (symbolsRead ? CodeMap.of(symbols, n) : CodeMap.load(detailed, n)) : null;
                threads = new ThreadEngine(this, an, rd, times, source != null ? Readers.fetch(source, n) : pre.hasFetch, code);
                ThreadEngine te = threads;
                counter = () -> te.replayed;
                threads.run();
                total = threads.total;
                replayed = threads.replayed;
            }
            for (Analysis a : an) {
                a.end(this, total);
            }
        } finally {
            for (TraceReader r : rd) {
                Prescan.close(r);
            }
            if (crd != null) {
                for (TraceReader r : crd) {
                    Prescan.close(r);
                }
            }
        }
    }

    /**
     * Partitioned replay (SPEC §4 "Partitioning"): one prescan, then {@code parts} replays of the same schedule on
     * {@code parts} threads, partition k feeding the analyses {@code factory.apply(k)}. Clock assignment is
     * deterministic, so every partition sees the same callbacks with the same clocks; each analysis keeps the
     * state of the addresses of its partition ({@link ReplayContext#partitionOf}) and the caller merges the
     * results, which then equal a serial run's. Returns the analyses of each partition, in partition order.
     */
    public static <A extends Analysis> List<A> runPartitioned(TraceSet detailed, TraceSet callsOrNull,
            ReplayOptions o, int parts, java.util.function.IntFunction<A> factory) {
        return new Replay(detailed, callsOrNull, o).runInPartitions(parts, factory);
    }

    /**
     * True if {@link #runRouted} routes this live replay into {@code parts} partitions: one source (each stream read
     * once, by its router), several partitions, no skipping of bad records (the readers' skipped records are the
     * replay's problems) and no thread announced with instruction-fetch records ({@link Source#hasFetch}; a
     * branch or procedure record in a stream is refused when the router meets it: the producer says before the run
     * whether it writes any, as the agent's level does). False for trace files.
     */
    public boolean routesLive(int parts) {
        if (source == null || parts < 2 || o.skipBadRecords || partitionSources != null && partitionSources.size() > 1) {
            return false;
        }
        for (int t = 0; t < detailed.size(); t++) {
            if (source.hasFetch(t)) {
                return false;
            }
        }
        return true;
    }

    /**
     * True if this replay can run in {@code parts} partitions ({@link #runInPartitions}): a replay of files can
     * (each partition reads them), a live one if it has a source per partition.
     */
    public boolean partitionable(int parts) {
        return source == null || (partitionSources != null && partitionSources.size() == parts);
    }

    /**
     * This replay as partition 0 of {@code parts}, on the calling thread, and partitions 1 .. parts-1 on threads of
     * their own, after one prescan shared by all (trace files: each partition reads them), or, live, each partition
     * reading its own source ({@link #partitionable}; no prescan, no work profile); see {@link #runPartitioned}.
     * Problems continued past are this replay's ({@link #problems}), the same in every partition. If a partition fails, the first failure in partition order is rethrown once every
     * partition has ended. Analyses added before ({@link #add}) are not used. Returns the analyses in partition
     * order.
     */
    public <A extends Analysis> List<A> runInPartitions(int parts, java.util.function.IntFunction<A> factory) {
        if (parts < 1 || parts > 1024) {
            throw new BadInputException("partitions: " + parts + " out of range (1..1024)");
        }
        if (!partitionable(parts)) {
            throw new IllegalStateException("a live replay with " + (partitionSources == null ? 1
                    : partitionSources.size()) + " source(s) cannot run in " + parts + " partitions");
        }
        if (source == null && pre == null) {
            prescan(parts, false);
        }
        mode = MODE_REPLAYS;
        return runParts(parts, factory, k -> source == null ? new Replay(detailed, calls, o)
                : new Replay(detailed, o, partitionSources.get(k)), null);
    }

    /**
     * The prescan of a partitioned run, on {@code parts} threads, at most one per core ({@link Prescan#workers});
     * {@code routes}: decide which traces route.
     */
    private void prescan(int parts, boolean routes) {
        pre = new Prescan(detailed.size(), o, problems);
        if (parts > 1 && profileNeeded) {
            pre.countWork();
        }
        if (routes) {
            pre.checkRoutes();
            if (!spinsNeeded) {
                pre.skipSpins();
            }
        }
        // the partitions wait for the prescan: as many threads as pay
        pre.run(detailed, calls, o.interleave > 0, Prescan.workers(parts, detailed));
        expect();
        if (o.exactStream && o.interleave == 0) {
            // one read of the sidecar for all partitions (each makes its own map: the lookup cache is per replay)
            symbols = CodeMap.read(detailed);
            symbolsRead = true;
        }
    }

    /**
     * Runs partition 0 on this replay and thread, partitions 1 .. parts-1 on replays {@code make} gives, each on a
     * thread of its own, and {@code helpers} (if any: the routers) beside them ({@link PartitionThreads}); a failure
     * aborts the routed run in progress (if any), so that no part waits for one that failed.
     */
    private <A extends Analysis> List<A> runParts(int parts, java.util.function.IntFunction<A> factory,
            java.util.function.IntFunction<Replay> make, Runnable[] helpers) {
        analyses.clear();
        routedPart = routedSources != null;
        RoutedRun r = activeRun;
        CoreTurns turns = r == null ? null : r.turns();
        try {
            return PartitionThreads.run(parts, k -> CoreTurns.run(turns, () -> {
                Replay replay = k == 0 ? this : make.apply(k);
                A a = partition(replay, k, parts, factory);
                replay.run();
                if (r != null) {
                    r.release(k);
                }
                return a;
            }), helpers, r == null ? () -> { } : r::abort);
        } finally {
            activeRun = null;
        }
    }

    /** The routed run in progress (its pipes released as partitions end, aborted when a part fails); else null. */
    private volatile RoutedRun activeRun;

    /** {@link #partitionMode()} of a routed run. */
    public static final String MODE_ROUTED = "routed";
    /** {@link #partitionMode()} of a run with one replay of the trace files per partition. */
    public static final String MODE_REPLAYS = "replays";

    /**
     * Which partitions of an analysis need a data access, for a routed replay ({@link #runRouted}). Called on the
     * router threads, several at once: it must only read what it was made with.
     */
    public interface Router {
        /**
         * Writes into {@code to}, from index 0, each partition (once) that needs thread {@code thread}'s data access
         * of {@code size} bytes at {@code address}, and returns how many; {@code to} has room for every partition.
         */
        int route(int thread, long address, int size, int[] to);

        /**
         * The longest run of a thread's data accesses that a partition does not need which the router may give it
         * as the accesses themselves instead of a gap record; 0 (the default): never. A short gap costs a partition
         * more than its accesses (a six-word record, read on the engine's slow path, and a round of lockstep in
         * which every thread is visited). Only runs of accesses of at least one byte, each within one 4 KiB page,
         * are given so, and only from inside one batch of the router's reader; the partition's analysis must
         * handle such an access exactly as {@link Analysis#skipped} of that one access and its bytes (CIAT does:
         * another partition's thread on another partition's page, ciat/README.md "Parallel analysis").
         */
        default int fill() {
            return 0;
        }

        /**
         * The partition whose analysis detects spins ({@link SpinDetector}), or -1 (the default): none. The routed
         * run then also gives that partition every access of each thread the prescan found a possible spin in
         * ({@link ReplayContext#possibleSpin}), and the other threads' stores that may touch such a spin's
         * locations (module README "Partitioned replay"), so that a detector fed those threads' accesses and every
         * store it gets, and no other load, decides as in a serial run; the analysis handles the accesses it did
         * not ask for as {@link Analysis#skipped} ones.
         */
        default int spinPartition() {
            return -1;
        }

        /**
         * log2 of the size of the aligned blocks this router decides by (0 to 12: at most a 4 KiB page), or -1 (the
         * default): by access. A router that declares b promises, for the accesses of one thread of at least one
         * byte, each within one block of 2^b bytes, routed in trace order by one router of {@link #forChunk}: all
         * accesses to a block after the first get the same partitions (the first may get more, where a thread's
         * first access to a block is special, as a first reference to a page). The splitter then asks once or
         * twice per block and remembers the answer ({@link RouteSplitter}: a run of accesses to one block is
         * routed with one compare and copied whole).
         */
        default int blockBits() {
            return -1;
        }

        /**
         * The router of one chunk of one thread's trace (or of a whole trace), which routes the chunk's accesses in
         * trace order on one thread: this router (the default) if it keeps no state between accesses; one that does
         * (CDAT's first references per thread) gives a fresh one, whose decisions must stay exact for a chunk that
         * begins anywhere in the trace (replay/README.md "Partitioned replay", chunks).
         */
        default Router forChunk() {
            return this;
        }
    }

    /**
     * A partitioned replay of trace files that reads each file once in all after the prescan (SPEC §4
     * "Partitioning"; module README "Partitioned replay"): a router on {@code parts} threads reads the traces and
     * gives each partition's replay, on a thread of its own (partition 0 on this one, as {@link #runInPartitions}),
     * every call record and the data accesses {@code routing} says it needs, and in place of the others a gap
     * that its engine runs as they would run ({@link Analysis#skipped}): every partition schedules exactly as a
     * serial run and delivers its accesses in the serial order with the serial clocks; its context says
     * {@link ReplayContext#routed}; with {@code -i} the slice engine runs the gaps so ({@code SliceEngine}).
     * {@code routing} is asked once, after the prescan, with this replay as context (its work profile and threads).
     * A trace with branch, procedure or fetch records goes whole to every partition (its instruction stream decides
     * clocks and fetches). With {@link ReplayOptions#skipBadRecords} the router's reader skips the bad records (the
     * prescan has listed them, as in a serial run), and every partition's messages name positions in the trace files.
     * A router's {@link Router#spinPartition} also gets what its spin detector needs ({@link SpinRoutes}).
     * A live replay ({@link #live}) routes without a prescan when {@link #routesLive}: a router thread per stream
     * reads it once ({@code LiveIntake}), the context {@code routing} gets has no work profile, and the partitions
     * replay as the serial live replay does. Runs as {@link #runInPartitions} instead ({@link #partitionMode()}
     * says which) for a live replay that does not route and for one partition.
     */
    public <A extends Analysis> List<A> runRouted(int parts, java.util.function.IntFunction<A> factory,
            java.util.function.Function<ReplayContext, Router> routing) {
        if (parts < 1 || parts > 1024) {
            throw new BadInputException("partitions: " + parts + " out of range (1..1024)");
        }
        boolean live = source != null;
        if (live ? !routesLive(parts) : parts == 1) {
            return runInPartitions(parts, factory);
        }
        if (!live) {
            prescan(parts, true);
            if (!pre.allRoutable()) {
                return runInPartitions(parts, factory);
            }
        }
        mode = MODE_ROUTED;
        // a live run has no prescan: its router is the analysis's own (RouteSplitter refuses an instruction stream)
        Router made = routing.apply(this);
        if (!live && !spinsNeeded && made.spinPartition() >= 0) {
            throw new IllegalStateException("a router with a spin partition, after a prescan told to skip spins");
        }
        Router route = live ? made : RouteSplitter.planned(SpinRoutes.Routing.of(made, pre.spinRoutes, parts), pre);
        RoutedRun run = live ? RoutedRun.live(route, detailed, source, parts, routedCapacity)
                : RoutedRun.files(route, detailed, o, pre, parts, routedCapacity, partitionsAtOnce);
        activeRun = run;
        routedSources = run.channels(0);
        try {
            return runParts(parts, factory, k -> {
                Replay r = live ? new Replay(detailed, o, source) : new Replay(detailed, calls, o);
                r.routedSources = run.channels(k);
                r.routedPart = true;
                return r;
            }, run.routers());
        } finally {
            routedSources = null;
        }
    }

    /**
     * Bytes a routed pipe may hold before its router waits (by default 4 MiB, less where threads &times; partitions
     * pipes would hold more than 256 MiB in all, but at least 64 KiB; tests make it tiny to show that no capacity
     * can deadlock the routed replay).
     */
    public Replay routedCapacity(long bytes) {
        routedCapacity = Math.max(0, bytes);
        return this;
    }

    /** How the last partitioned run ran: {@link #MODE_ROUTED} or {@link #MODE_REPLAYS}; null before one. */
    public String partitionMode() {
        return mode;
    }

    /** Makes replay {@code r} partition k of n with the analysis {@code factory} gives for k; returns it. */
    private <A extends Analysis> A partition(Replay r, int k, int n, java.util.function.IntFunction<A> factory) {
        r.pre = pre;
        r.symbols = symbols;
        r.symbolsRead = symbolsRead;
        r.partition = k;
        r.partitions = n;
        A a = factory.apply(k);
        r.add(a);
        return a;
    }

    /**
     * The prescan of a run in partitions, made once and handed to partitions that run elsewhere (another process, a
     * Spark task: {@link #runPartition}): the synchronization variables, call-time match, skeletons and work
     * profile. Serializable; it holds no file and no option, so the process that runs a partition opens the same
     * trace set itself with the same replay options.
     */
    public static final class Plan implements java.io.Serializable {
        private static final long serialVersionUID = 1L;
        private final Prescan pre;
        private final int parts;
        private final int threads;
        private final boolean routable;

        private Plan(Prescan pre, int parts, int threads, boolean routable) {
            this.pre = pre;
            this.parts = parts;
            this.threads = threads;
            this.routable = routable;
        }

        /** The number of partitions this plan is for. */
        public int parts() {
            return parts;
        }

        /** The number of thread traces this plan is for. */
        public int threads() {
            return threads;
        }

        /**
         * True if the partitions can run routed ({@link #runPartition(Plan, int, Analysis, IntFunction)}): planned
         * with {@code routes}, and every thread passed {@link RouteCheck} (as {@link #runRouted} decides).
         */
        public boolean routable() {
            return routable;
        }

        /** The prescan (package: the offline router's context, {@link RouteSplitter#router}). */
        Prescan prescan() {
            return pre;
        }

        /** The work profile the prescan counted (every partition derives its share from it). */
        public WorkProfile workProfile() {
            return pre.profile;
        }

        /**
         * The chunks thread t's trace is routed in ({@link RouteSplitter#RouteSplitter(Plan, java.nio.file.Path,
         * int, int, Router, ReplayOptions, java.nio.channels.WritableByteChannel[])}): 1 for a trace read whole
         * (compressed, or not larger than a chunk, or a plan that does not route).
         */
        public int chunks(int t) {
            Chunks c = pre.chunks[t];
            return c == null ? 1 : c.count();
        }

        /** Bytes of thread t's trace file in chunk i (of {@link #chunks}); -1 for a trace read whole. */
        public long chunkBytes(int t, int i) {
            Chunks c = pre.chunks[t];
            return c == null ? -1 : c.to(i) - c.from(i);
        }
    }

    /**
     * Runs the prescan of a run in {@code parts} partitions (work profile counted, as {@link #runInPartitions} does)
     * and returns it as a {@link Plan} for {@link #runPartition}; this replay then is the context (threads,
     * processors, trace set, problems of the prescan) that the partitions' results are merged in. Trace files only.
     */
    public Plan plan(int parts) {
        return plan(parts, false);
    }

    /**
     * {@link #plan(int)}, and with {@code routes} (and several partitions) the prescan also decides whether the
     * partitions can run routed ({@link Plan#routable}).
     */
    public Plan plan(int parts, boolean routes) {
        if (parts < 1 || parts > 1024) {
            throw new BadInputException("partitions: " + parts + " out of range (1..1024)");
        }
        if (source != null) {
            throw new IllegalStateException("a live replay has no prescan to plan with");
        }
        pre = new Prescan(detailed.size(), o, problems);
        if (parts > 1) {
            pre.countWork();
        }
        boolean route = routes && parts > 1;
        if (route) {
            pre.checkRoutes();
        }
        pre.run(detailed, calls, o.interleave > 0, Prescan.workers(parts, detailed));
        expect();
        return new Plan(pre, parts, detailed.size(), route && pre.allRoutable());
    }

    /**
     * Replays partition {@code k} of {@code plan.parts()} alone, on the calling thread, with the prescan of {@code
     * plan} (made by {@link #plan} on a replay of the same trace set and options, possibly in another process),
     * feeding {@code analysis}; returns it. The partition sees exactly what partition k of {@link #runInPartitions}
     * sees. Analyses added before ({@link #add}) are not used.
     */
    public <A extends Analysis> A runPartition(Plan plan, int k, A analysis) {
        return runPartition(plan, k, analysis, null);
    }

    /**
     * {@link #runPartition(Plan, int, Analysis)} as a partition of a routed replay (a {@link Plan#routable} plan):
     * thread t's records come from {@code routed.apply(t)}, the routed stream {@link RouteSplitter} wrote for
     * partition k from thread t's trace (null: from the trace files, as {@link #runInPartitions}); the partition's
     * context says {@link ReplayContext#routed} and its callbacks are those of partition k of {@link #runRouted}.
     */
    public <A extends Analysis> A runPartition(Plan plan, int k, A analysis,
            IntFunction<java.nio.channels.ReadableByteChannel> routed) {
        return runRoutedPartition(plan, k, analysis, routed);
    }

    /** {@link #runPartition(Plan, int, Analysis, IntFunction)} with routed streams of bytes or of words. */
    <A extends Analysis> A runRoutedPartition(Plan plan, int k, A analysis, IntFunction<?> routed) {
        if (routed != null && !plan.routable) {
            throw new IllegalStateException("routed streams given for a plan that does not route");
        }
        if (k < 0 || k >= plan.parts) {
            throw new IllegalArgumentException("partition " + k + " of " + plan.parts);
        }
        if (source != null || plan.threads != detailed.size()) {
            throw new BadInputException(detailed.base() + ": the plan is for " + plan.threads + " traces, this trace"
                    + " set has " + detailed.size());
        }
        analyses.clear();
        pre = plan.pre;
        partition = k;
        partitions = plan.parts;
        routedSources = routed;
        routedPart = routed != null;
        add(analysis);
        try {
            run();
        } finally {
            routedSources = null;
        }
        return analysis;
    }

    /** True for a replay of live streams ({@link #live}), which can be read only once. */
    public boolean isLive() {
        return source != null;
    }

    /** Problems the replay continued past (only with {@link ReplayOptions#skipBadRecords}); at most 1000 kept. */
    @Override
    public List<String> problems() {
        return problems.list();
    }

    /**
     * The trace files, detailed then call traces, that cannot be verified complete (no end record promised, no
     * start_trace record first), after {@link #run()}: the results cover the records they hold, which a cut-short file would not say.
     * Empty for live streams and for partitions (their parent's prescan has it).
     */
    public List<java.nio.file.Path> unverified() {
        List<java.nio.file.Path> out = new ArrayList<>();
        if (pre != null && partition == 0) {
            for (int t = 0; t < pre.unverified.length; t++) {
                if (pre.unverified[t]) {
                    out.add(detailed.files().get(t));
                }
            }
            for (int t = 0; t < pre.callsUnverified.length; t++) {
                if (pre.callsUnverified[t]) {
                    out.add(calls.files().get(t));
                }
            }
        }
        return out;
    }

    /** Number of problems continued past. */
    @Override
    public long problemCount() {
        return problems.count();
    }

    /** The slice schedule used with {@code -i p}, after {@link #run()}; null for thread traces. */
    public SliceScheduler.Schedule schedule() {
        return slices == null ? null : slices.schedule();
    }

    /** Sets {@link #expected} from the prescan (none for live streams). */
    private void expect() {
        if (pre != null && expected < 0) {
            long sum = 0;
            for (long x : pre.records) {
                sum += x;
            }
            expected = sum;
        }
    }

    /**
     * Records replayed so far, for a progress display on another thread while {@link #run()} runs (in a
     * partitioned run, partition 0's: the partitions replay the same records): read without synchronization, so
     * it may lag behind a little; 0 before the replay's first record (e.g. during the prescan).
     */
    public long progress() {
        java.util.function.LongSupplier c = counter;
        return c == null ? 0 : c.getAsLong();
    }

    /**
     * The records the detailed traces hold, which the replay counts in {@link #progress} (a call record once),
     * known once the prescan has read them; -1 before that and for live streams (their length is not known).
     */
    public long expectedRecords() {
        return expected;
    }

    /** Records replayed (a call record counts once), after {@link #run()}. */
    public long records() {
        return replayed;
    }

    ReplayOptions options() {
        return o;
    }

    /** A user's mistake in the traces: throws, or with skipping on records it and continues. */
    void bad(String msg) {
        if (!o.skipBadRecords) {
            throw new BadInputException(msg);
        }
        problems.add(msg);
    }

    /**
     * Something the results should carry although nothing in the traces is wrong (an on-the-fly analysis whose
     * run did not keep a promise its hints made): listed with {@link #problems()}, never fatal.
     */
    void notice(String msg) {
        problems.add(msg);
    }

    // ---------------------------------------------------------------- ReplayContext

    @Override
    public int threads() {
        return detailed.size();
    }

    @Override
    public int processors() {
        return o.interleave > 0 ? o.interleave : detailed.size();
    }

    @Override
    public boolean interleaved() {
        return o.interleave > 0;
    }

    @Override
    public long processorBusy(int cpu) {
        SliceScheduler.Schedule s = schedule();
        if (s == null || cpu < 0 || cpu >= s.processors()) {
            return -1;
        }
        long busy = 0;
        for (int k = 0; k < s.segments(cpu); k++) {
            busy += s.to(cpu, k) - s.from(cpu, k);
        }
        return busy;
    }

    @Override
    public TraceSet traces() {
        return detailed;
    }

    @Override
    public boolean isSyncVariable(long address) {
        return source != null ? source.isSyncVariable(address) : pre != null && pre.isSyncVariable(address);
    }

    @Override
    public int ioProcessors() {
        return !o.handleIo ? 0 : o.distributedIo ? processors() : 1;
    }

    @Override
    public int partition() {
        return partition;
    }

    @Override
    public WorkProfile workProfile() {
        return pre == null ? null : pre.profile;
    }

    @Override
    public int partitions() {
        return partitions;
    }

    @Override
    public boolean routed() {
        return routedPart;
    }

    @Override
    public boolean possibleSpin(int thread) {
        return pre != null && pre.possibleSpin(thread);
    }

    @Override
    public boolean dropsAccesses() {
        return pre == null ? source != null : pre.dropsAccesses();
    }

    @Override
    public long clock(int thread) {
        if (threads != null) {
            return threads.clock[thread];
        }
        return slices == null ? 0 : slices.traceClock[thread];
    }
}
