package org.dsmscope.replay;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.List;
import org.dsmscope.trace.BadInputException;
import org.dsmscope.trace.CallType;
import org.dsmscope.trace.RecordKind;
import org.dsmscope.trace.TraceReader;
import org.dsmscope.trace.TraceSet;

/**
 * The pass before the replay (SPEC §4, {@link ReplayContext#isSyncVariable}): streams every trace once and
 * collects the synchronization variables (argument 1 of lock, barrier, condition, latch and ldcw calls), whether
 * a trace carries instruction-fetch extension records, the time of the run's first call record, the
 * call-trace-to-detailed-trace match (SPEC §4: the n-th call record of one is the n-th of the other), and, for
 * {@code -i p}, each trace's synchronization {@link Skeleton}.
 */
final class Prescan implements java.io.Serializable {
    private static final long serialVersionUID = 1L;
    final LongIntMap syncVars = new LongIntMap(64);
    /** Smallest and largest synchronization variable: most addresses are rejected by one range check. */
    long syncMin = Long.MAX_VALUE;
    long syncMax = Long.MIN_VALUE;
    final boolean[] hasFetch;
    /** Per thread: it can be routed ({@link RouteCheck}; only when {@link #checkRoutes} was asked for). */
    final boolean[] routable;
    /**
     * Per thread: a routed replay gives every partition all its records (only when {@link #checkRoutes} was asked
     * for): it holds fetch records (fetch mode), or branch or procedure records unless {@link #stream}.
     */
    final boolean[] whole;
    /**
     * Per thread: it holds branch or procedure records and no fetch records, and a routed thread replay routes it by
     * address all the same ({@link ReplayOptions#streamsByAddress}, not with {@code -i}; {@link RouteSplitter}: its
     * branch and procedure records go to every partition, whose engine reconstructs the instruction stream; module
     * README "Threads with an instruction stream").
     */
    final boolean[] stream;
    /** System property: {@code true} routes threads with branch or procedure records by address (as the option). */
    static final String STREAMS_BY_ADDRESS = "dsmscope.streamsByAddress";
    /** {@link ReplayOptions#streamsByAddress} or {@link #STREAMS_BY_ADDRESS} (read once a run that checks routes). */
    private transient boolean streamsAsked;
    /** Per thread: it has a run of loads that could be a spin ({@link RouteCheck#spins}). */
    final boolean[] spins;
    /** A marker stops all threads somewhere (command 3): records leave runs at places their files do not show. */
    private boolean stopsAll;
    /**
     * A marker stops or resumes all threads (command 3 or 4): it may take effect inside another thread's routed gap,
     * so the routers end gaps where the access size changes ({@link #gapsBySize}).
     */
    private boolean movesAll;
    /** A marker stops a thread or all threads (command 1 or 3): {@link #dropsAccesses}. */
    private boolean dropsSome;
    /** The locations of possible spins, while the traces are scanned ({@link #checkRoutes}). */
    private transient SpinRoutes.Builder watch = new SpinRoutes.Builder();
    /** What a routed run gives the partition that detects spins (after {@link #run} with {@link #checkRoutes}). */
    SpinRoutes spinRoutes;
    /**
     * Per thread: where its file is cut into chunks for the routers ({@link #checkRoutes}, an uncompressed file of
     * more than {@link Chunks#bytes()} bytes), else null (routed whole).
     */
    final Chunks[] chunks;
    private boolean checkRoutes;
    /** Number of leading call records whose times come from the call trace (all of them unless it mismatched). */
    final long[] usableCalls;
    final Skeleton[] skeletons;
    /** µs of the run's first call record (unwrapped), 0 if there are none. */
    long t0;
    /** The work per thread, page slot and private page (partitioned runs: {@link #countWork}), else null. */
    WorkProfile profile;
    /** Records of each detailed trace (what the replay will count: {@link Replay#expectedRecords}). */
    final long[] records;
    /** Detailed traces that cannot be verified complete ({@link Skeleton#unverified}). */
    final boolean[] unverified;
    /** Call traces that cannot be verified complete ({@link Skeleton#callsUnverified}). */
    final boolean[] callsUnverified;

    private final transient ReplayOptions o;
    /** Where problems go: the replay's, or (parallel prescan) those of the file being scanned. */
    private transient Problems problems;

    Prescan(int n, ReplayOptions o, Problems problems) {
        this.o = o;
        this.problems = problems;
        hasFetch = new boolean[n];
        routable = new boolean[n];
        whole = new boolean[n];
        stream = new boolean[n];
        spins = new boolean[n];
        chunks = new Chunks[n];
        usableCalls = new long[n];
        skeletons = new Skeleton[n];
        records = new long[n];
        unverified = new boolean[n];
        callsUnverified = new boolean[n];
    }

    /** Read buffer per trace during the replay: small, so that many interleaved traces stay in cache. */
    static final int REPLAY_BUFFER = 16 << 10;

    /**
     * Pages (4 KiB) of syncMin..syncMax holding a synchronization variable, one bit each from syncMin's page (null
     * when that span is above 2^27 pages): a data page among them costs one bit test instead of a hash probe.
     */
    private long[] syncPages;
    private long syncPage0;

    /** Whether {@code address} is a synchronization variable (exact; a range check and a page bit first). */
    boolean isSyncVariable(long address) {
        if (address < syncMin || address > syncMax) {
            return false;
        }
        long[] b = syncPages;
        if (b != null) {
            long i = (address >>> 12) - syncPage0;
            if ((b[(int) (i >>> 6)] & (1L << i)) == 0) {
                return false;
            }
        }
        return syncVars.get(address) >= 0;
    }

    private void addSyncVariable(long v) {
        syncVars.put(v, 0);
        syncMin = Math.min(syncMin, v);
        syncMax = Math.max(syncMax, v);
    }

    /**
     * A {@link CallType#SYNC_RANGE} declaration (a Lackey import's {@code --sync-addresses}): every byte of the range
     * is a synchronization variable, so an access starting at any of them is one. A count outside 1 to {@link
     * CallType#SYNC_RANGE_MAX}, or a range past the end of the address space, is a bad record.
     */
    private void addSyncRange(TraceReader r) {
        long a = CallType.wide(r.arg(1), r.arg(2));
        long bytes = r.arg(3);
        if (bytes < 1 || bytes > CallType.SYNC_RANGE_MAX || Long.compareUnsigned(a, -bytes) > 0) {
            String msg = r.name() + ": byte offset " + r.offset() + ": sync_range of " + bytes + " bytes at 0x"
                    + Long.toHexString(a) + " (1 to " + CallType.SYNC_RANGE_MAX + " bytes within the address space)";
            if (!o.skipBadRecords) {
                throw new BadInputException(msg);
            }
            problems.add(msg + " (passed over)");
            return;
        }
        for (long i = 0; i < bytes; i++) {
            addSyncVariable(a + i);
        }
    }

    /** Builds {@link #syncPages} from the variables found. */
    void indexSyncPages() {
        if (syncMin > syncMax) {
            return;
        }
        syncPage0 = syncMin >>> 12;
        long span = (syncMax >>> 12) - syncPage0 + 1;
        if (span > (1L << 27)) {
            return;
        }
        long[] b = new long[(int) ((span + 63) >>> 6)];
        syncVars.forEachKey(v -> {
            long i = (v >>> 12) - syncPage0;
            b[(int) (i >>> 6)] |= 1L << i;
        });
        syncPages = b;
    }

    static TraceReader open(Path p, ReplayOptions o) {
        return open(p, o, 1 << 20);
    }

    /** Trace files opened by prescans, replays and routers so far (tests count the reads of a routed replay). */
    static final java.util.concurrent.atomic.AtomicLong OPENED = new java.util.concurrent.atomic.AtomicLong();

    static TraceReader open(Path p, ReplayOptions o, int buffer) {
        OPENED.incrementAndGet();
        try {
            return TraceReader.open(p, TraceReader.Options.defaults().skipBadRecords(o.skipBadRecords)
                    .order(o.byteOrder).bufferBytes(buffer));
        } catch (IOException e) {
            throw new UncheckedIOException(p + ": cannot read: " + e.getMessage(), e);
        }
    }

    /** Makes {@link #run} count the {@link WorkProfile} too (one more look at every word it skips). */
    void countWork() {
        profile = new WorkProfile(hasFetch.length);
    }

    /** Makes {@link #run} decide {@link #routable} too (one look at every record; thread and {@code -i} traces). */
    void checkRoutes() {
        checkRoutes = true;
    }

    /** Whether {@link #checkRoutes} looks for possible spins too ({@link RouteCheck#spins}). */
    private boolean checkSpins = true;

    /**
     * Makes {@link #checkRoutes} look only for instruction streams, not for possible spins (no thread is marked, the
     * watch set stays empty): for routers that detect no spins ({@link Replay#prescanFor}).
     */
    void skipSpins() {
        checkSpins = false;
    }

    /** Fewest trace bytes per prescan thread: a thread more would cost more than it saves. */
    static final long WORKER_BYTES = 16L << 20;

    /**
     * How many threads scan {@code detailed} for a run in {@code parts} partitions: one per partition, but at most
     * one per core the JVM may use (more only take turns, and delay the JIT's threads, which compile the scan
     * while it runs) and one per {@link #WORKER_BYTES} of trace.
     */
    static int workers(int parts, TraceSet detailed) {
        long bytes = 0;
        for (Path p : detailed.files()) {
            try {
                bytes += java.nio.file.Files.size(p);
            } catch (IOException e) {
                // the scan reports it
            }
        }
        long byBytes = bytes / WORKER_BYTES + 1;
        return (int) Math.max(1, Math.min(Math.min(parts, Runtime.getRuntime().availableProcessors()), byBytes));
    }

    /**
     * True if every thread can be routed ({@link #checkRoutes} asked for before {@link #run}). A marker that stops
     * all threads routes too: its routers' gaps are of one access size ({@link #gapsBySize}), so a partition's
     * engine gives the piece of a gap that runs before the marker takes effect, and drops the rest, with the serial
     * run's bytes ({@code ThreadEngine.gap}).
     */
    boolean allRoutable() {
        for (boolean b : routable) {
            if (!b) {
                return false;
            }
        }
        return checkRoutes;
    }

    /**
     * True if a marker stops or resumes all threads, so that a thread's stopped state may change inside its gap: the
     * routers end every gap where the access size changes (each piece then has count × size bytes).
     */
    boolean gapsBySize() {
        return movesAll;
    }

    /** {@link ReplayContext#dropsAccesses}: a marker stops a thread or all threads (command 1 or 3). */
    boolean dropsAccesses() {
        return dropsSome;
    }

    /** True if thread t may spin ({@link SpinRoutes#threads}; false unless the routes were checked). */
    boolean possibleSpin(int t) {
        return spinRoutes != null && spinRoutes.threads[t];
    }

    void run(TraceSet detailed, TraceSet calls, boolean skeleton) {
        run(detailed, calls, skeleton, 1);
    }

    /**
     * Scans every trace, on {@code workers} threads (the calling thread and workers - 1 more) when there are
     * several traces. The results do not depend on the number of workers: each thread's scan is independent, its
     * problems are added in trace order, and a failure is that of the first trace in order that failed (as one
     * worker, which stops there, would report).
     */
    void run(TraceSet detailed, TraceSet calls, boolean skeleton, int workers) {
        List<Path> files = detailed.files();
        int n = files.size();
        if (checkRoutes) {
            // the routed run's properties, refused before any trace is read if malformed
            streamsAsked = o.streamsByAddress
                    || org.dsmscope.trace.SystemProperties.booleanValue(STREAMS_BY_ADDRESS, false);
            Chunks.bytes();
        }
        Skeleton[] sks = new Skeleton[n];
        if (workers <= 1 || n < 2) {
            for (int t = 0; t < n; t++) {
                sks[t] = scanOne(t, files, calls, skeleton);
            }
        } else {
            runParallel(files, calls, skeleton, Math.min(workers, n), sks);
        }
        long first = Long.MAX_VALUE;
        for (int t = 0; t < n; t++) {
            if (skeleton) {
                skeletons[t] = sks[t];
            }
            unverified[t] = sks[t].unverified;
            callsUnverified[t] = sks[t].callsUnverified;
            if (sks[t].firstTime >= 0) {
                first = Math.min(first, sks[t].firstTime);
            }
        }
        t0 = first == Long.MAX_VALUE ? 0 : first;
        indexSyncPages();
        if (checkRoutes) {
            spinRoutes = SpinRoutes.of(spins, watch, stopsAll);
            watch = null;
        }
        if (profile != null) {
            profile.resolvePages();
        }
        if (skeleton) {
            for (Skeleton sk : skeletons) {
                sk.rebase(t0);
            }
        }
    }

    private Skeleton scanOne(int t, List<Path> files, TraceSet calls, boolean skeleton) {
        Skeleton sk = new Skeleton();
        if (profile != null) {
            profile.nextThread();
        }
        scan(t, files.get(t), calls == null ? null : calls.files().get(t), sk, skeleton);
        return sk;
    }

    /** The parallel scan: traces dealt by size over the workers, each with a prescan of its own, then merged. */
    private void runParallel(List<Path> files, TraceSet calls, boolean skeleton, int workers, Skeleton[] sks) {
        int n = files.size();
        int[] worker = deal(files, workers);
        Prescan[] parts = new Prescan[workers];
        Problems[] fileProblems = new Problems[n];
        Throwable[] failed = new Throwable[n];
        Runnable[] jobs = new Runnable[workers];
        for (int w = 0; w < workers; w++) {
            Prescan part = new Prescan(n, o, null);
            if (profile != null) {
                part.countWork();
            }
            part.checkRoutes = checkRoutes;
            part.checkSpins = checkSpins;
            part.streamsAsked = streamsAsked;
            parts[w] = part;
            int me = w;
            jobs[w] = () -> {
                for (int t = 0; t < n; t++) {
                    if (worker[t] != me) {
                        continue;
                    }
                    fileProblems[t] = new Problems();
                    part.problems = fileProblems[t];
                    try {
                        sks[t] = part.scanOne(t, files, calls, skeleton);
                    } catch (Throwable e) {
                        failed[t] = e;
                        return;
                    }
                }
            };
        }
        Thread[] threads = new Thread[workers];
        for (int w = 1; w < workers; w++) {
            threads[w] = new Thread(jobs[w], "dsmscope-prescan-" + w);
            threads[w].setDaemon(true);
            threads[w].start();
        }
        jobs[0].run();
        for (int w = 1; w < workers; w++) {
            try {
                threads[w].join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while the traces were scanned", e);
            }
        }
        for (int t = 0; t < n; t++) {
            if (fileProblems[t] != null) {
                problems.addAll(fileProblems[t]);
            }
            if (failed[t] != null) {
                rethrow(failed[t]);
            }
        }
        for (Prescan part : parts) {
            part.syncVars.forEachKey(v -> syncVars.put(v, 0));
            syncMin = Math.min(syncMin, part.syncMin);
            syncMax = Math.max(syncMax, part.syncMax);
            if (profile != null) {
                profile.add(part.profile);
            }
            watch.addAll(part.watch);
            stopsAll |= part.stopsAll;
            movesAll |= part.movesAll;
            dropsSome |= part.dropsSome;
        }
        for (int t = 0; t < n; t++) {
            hasFetch[t] = parts[worker[t]].hasFetch[t];
            routable[t] = parts[worker[t]].routable[t];
            whole[t] = parts[worker[t]].whole[t];
            stream[t] = parts[worker[t]].stream[t];
            spins[t] = parts[worker[t]].spins[t];
            chunks[t] = parts[worker[t]].chunks[t];
            usableCalls[t] = parts[worker[t]].usableCalls[t];
            records[t] = parts[worker[t]].records[t];
        }
    }

    /** Which worker scans each trace: largest first (ties by index) to the least loaded worker (ties: the lowest). */
    static int[] deal(List<Path> files, int workers) {
        int n = files.size();
        long[] size = new long[n];
        Integer[] order = new Integer[n];
        for (int t = 0; t < n; t++) {
            order[t] = t;
            try {
                size[t] = java.nio.file.Files.size(files.get(t));
            } catch (IOException e) {
                size[t] = 0; // the scan reports it
            }
        }
        java.util.Arrays.sort(order, (a, b) -> size[a] != size[b] ? Long.compare(size[b], size[a]) : Integer.compare(a, b));
        long[] load = new long[workers];
        int[] worker = new int[n];
        for (int t : order) {
            int best = 0;
            for (int w = 1; w < workers; w++) {
                if (load[w] < load[best]) {
                    best = w;
                }
            }
            worker[t] = best;
            load[best] += size[t];
        }
        return worker;
    }

    private static void rethrow(Throwable e) {
        if (e instanceof RuntimeException) {
            throw (RuntimeException) e;
        }
        if (e instanceof Error) {
            throw (Error) e;
        }
        throw new IllegalStateException(e);
    }

    /** Whether a run of {@link TraceReader#nextRun} words holds an instruction-fetch record. */
    private static boolean hasFetch(long[] words, int from, int n) {
        for (int i = from, end = from + n; i < end; i++) {
            if (TraceReader.wordKind(words[i]) == RecordKind.FETCH) {
                return true;
            }
        }
        return false;
    }

    /**
     * One trace's scan in progress ({@link #scan}): its readers and what it has counted so far. The records are
     * taken one step at a time ({@link #step}: the runs before a record, then the record), a method the JIT compiles
     * once it has been called a few hundred times, where a loop over a whole file would run interpreted until the
     * JIT replaces it on stack, on every prescan thread at once.
     */
    private static final class FileScan {
        final int t;
        final Path file;
        final Path callFile;
        final TraceReader r;
        final TraceReader c;
        final Skeleton sk;
        final boolean skeleton;
        final Times times = new Times();
        final RouteCheck route;
        final Chunks.Builder marks;
        long instrA;
        long instrB;
        long pc;
        boolean pcValid;
        boolean stopped;
        long callNo;
        long[] boundB;
        long[] ioB;
        boolean findFetch;

        FileScan(int t, Path file, Path callFile, TraceReader r, TraceReader c, Skeleton sk, boolean skeleton,
                RouteCheck route) {
            this.t = t;
            this.file = file;
            this.callFile = callFile;
            this.r = r;
            this.c = c;
            this.sk = sk;
            this.skeleton = skeleton;
            this.route = route;
            marks = route != null && r.codec() == org.dsmscope.trace.Codec.NONE ? new Chunks.Builder(r, Chunks.bytes())
                    : null;
            boundB = skeleton ? new long[16] : null;
            ioB = skeleton ? new long[4] : null;
            findFetch = !skeleton && r.extended();
        }
    }

    private void scan(int t, Path file, Path callFile, Skeleton sk, boolean skeleton) {
        TraceReader r = open(file, o);
        TraceReader c = null;
        FileScan f;
        try {
            c = callFile == null ? null : open(callFile, o);
            usableCalls[t] = c == null ? 0 : Long.MAX_VALUE;
            f = new FileScan(t, file, callFile, r, c, sk, skeleton, checkRoutes ? new RouteCheck(watch, checkSpins) : null);
            sk.unverified = !r.endPromised();
            sk.callsUnverified = c != null && !c.endPromised();
            while (step(f)) {
                // one record (and the runs before it) a step
            }
            if (c != null && f.callNo <= usableCalls[t]) {
                int k;
                while ((k = c.next()) != RecordKind.EOF && k != RecordKind.CALL) {
                    // skip non-call records of the call trace
                }
                if (k == RecordKind.CALL) {
                    mismatch(t, String.format("call trace %s has more call records than detailed trace %s: its"
                            + " call record #%d (byte offset %d, %s) has no counterpart (the detailed trace has %d)",
                            callFile, file, f.callNo + 1, c.offset(), CallType.name(c.callType()), f.callNo));
                }
            }
            if (r.skipped() > 0) {
                problems.add(r.skippedSummary());
            }
            if (f.marks != null) {
                Chunks cs = f.marks.build(records[t], r.position());
                chunks[t] = cs.count() > 1 ? cs : null;
            }
            if (c != null && c.skipped() > 0) {
                problems.add(c.skippedSummary());
            }
        } finally {
            close(r);
            close(c);
        }
        RouteCheck route = f.route;
        sk.instructions = hasFetch[t] ? f.instrB : f.instrA;
        routable[t] = route != null && route.routable;
        boolean byAddress = route != null && route.stream && !hasFetch[t] && !skeleton
                && streamsAsked;
        whole[t] = route != null && (route.stream || hasFetch[t]) && !byAddress;
        stream[t] = byAddress;
        spins[t] = route != null && route.spins;
        if (skeleton && hasFetch[t]) {
            System.arraycopy(f.boundB, 0, sk.boundAt, 0, sk.bounds);
            System.arraycopy(f.ioB, 0, sk.ioAt, 0, sk.ios);
        }
    }

    /** The runs of hot-kind records before the next other record of {@code f}'s trace, then that record; false at its end. */
    private boolean step(FileScan f) {
        int t = f.t;
        TraceReader r = f.r;
        RouteCheck route = f.route;
        Chunks.Builder marks = f.marks;
        Skeleton sk = f.sk;
        if (!f.skeleton) {
            // Without -i only calls and fetch records matter: skip whole runs of the hot kinds at once.
            for (int n; (n = r.nextRun(Integer.MAX_VALUE)) > 0; ) {
                records[t] += n;
                if (profile != null) {
                    profile.countRun(t, r.runWords(), r.runStart(), n, r.addressHigh());
                }
                // a run the route check found only memory records in holds no fetch record
                boolean other = route == null || !route.routable
                        || route.run(r.runWords(), r.runStart(), n, r.addressHigh());
                if (other && f.findFetch && !hasFetch[t] && hasFetch(r.runWords(), r.runStart(), n)) {
                    hasFetch[t] = true;
                    f.findFetch = false;
                }
                if (marks != null && r.position() >= marks.next) {
                    marks.note(r);
                }
            }
        } else {
            // With -i: memory records a run at a time, each one instruction unless the trace is stopped
            long m = memoryRuns(t, r, route, marks);
            if (!f.stopped) {
                f.instrA += m;
                if (f.pcValid) {
                    f.pc += m * InstructionStream.WORD;
                }
            }
        }
        int k = r.next();
        if (records[t] == 0 && sk.unverified) {
            // the first record: a trace that begins with start_trace says where it ends itself
            sk.unverified = k != RecordKind.CALL || r.callType() != CallType.START_TRACE;
        }
        if (k == RecordKind.EOF) {
            return false;
        }
        records[t]++;
        if (marks != null && r.position() >= marks.next) {
            marks.note(r);
        }
        if (profile != null) {
            profile.count(t, k, k == RecordKind.MEMORY ? r.address() : 0);
        }
        if (route != null && route.routable) {
            route.record(k, r);
        }
        if (k == RecordKind.MEMORY && !f.skeleton) {
            // Without -i only calls and fetch records matter here: no per-record work on the hot kind.
            return true;
        }
        switch (k) {
            case RecordKind.MEMORY:
                if (!f.stopped) {
                    if (f.pcValid) {
                        f.pc += InstructionStream.WORD;
                    }
                    f.instrA++;
                }
                break;
            case RecordKind.FETCH:
                hasFetch[t] = true;
                if (!f.stopped) {
                    f.instrB++;
                }
                break;
            case RecordKind.PROC_START:
                if (!f.stopped) {
                    f.pc = r.address();
                    f.pcValid = true;
                }
                break;
            case RecordKind.BRANCH:
            case RecordKind.PROC_CALL:
                if (!f.stopped) {
                    f.instrA += InstructionStream.gap(f.pcValid, f.pc, r.source());
                    f.pc = r.target();
                    f.pcValid = true;
                }
                break;
            case RecordKind.CALL:
                call(f);
                break;
            default:
                break;
        }
        return true;
    }

    /** The call record current in {@code f}'s detailed trace. */
    private void call(FileScan f) {
        int t = f.t;
        TraceReader r = f.r;
        TraceReader c = f.c;
        Skeleton sk = f.sk;
        int type = r.callType();
        if (CallType.hasSyncVariable(type)) {
            addSyncVariable(r.arg(1));
        } else if (type == CallType.SYNC_RANGE) {
            addSyncRange(r);
        }
        if (type == CallType.MARKER) {
            long cmd = r.arg(1);
            stopsAll |= cmd == 3;
            movesAll |= cmd == 3 || cmd == 4;
            dropsSome |= cmd == 1 || cmd == 3;
            if (cmd == 1 || cmd == 3) {
                f.stopped = true;
            } else if (cmd == 2 || cmd == 4) {
                f.stopped = false;
            }
        }
        TraceReader src = r;
        if (c != null && f.callNo < usableCalls[t]) {
            if (matchCall(t, r, c, f.callNo, f.file, f.callFile)) {
                src = c;
                if (f.callNo == 0 && c.callType() == CallType.START_TRACE) {
                    sk.callsUnverified = false; // its end_trace is checked like the detailed one's
                }
            } else {
                usableCalls[t] = f.callNo;
            }
        }
        long start = f.times.unwrap(src.startTime());
        long end = f.times.unwrap(src.endTime());
        if (sk.firstTime < 0) {
            sk.firstTime = start;
        }
        sk.lastTime = end;
        if (f.skeleton) {
            if (Skeleton.bounds(type)) {
                if (sk.bounds == f.boundB.length) {
                    f.boundB = java.util.Arrays.copyOf(f.boundB, f.boundB.length * 2);
                }
                f.boundB[sk.bounds] = f.instrB;
                sk.addBound(f.instrA, start, end);
            } else if (type == CallType.FILE_READ || type == CallType.FILE_WRITE) {
                if (sk.ios == f.ioB.length) {
                    f.ioB = java.util.Arrays.copyOf(f.ioB, f.ioB.length * 2);
                }
                f.ioB[sk.ios] = f.instrB;
                sk.addIo(f.instrA, r.arg(2), type == CallType.FILE_READ);
            }
        }
        f.callNo++;
    }

    /**
     * With {@code -i}: reads the memory records before trace t's next other record, a run at a time ({@link
     * TraceReader#peekRun}), counted and looked at for the work profile and the route check as the records {@code
     * next()} reads are; returns how many.
     */
    private long memoryRuns(int t, TraceReader r, RouteCheck route, Chunks.Builder marks) {
        long m = 0;
        for (int n; (n = r.peekRun(Integer.MAX_VALUE)) > 0; ) {
            long[] w = r.runWords();
            int from = r.runStart();
            int k = 0;
            while (k < n && TraceReader.wordKind(w[from + k]) == RecordKind.MEMORY) {
                k++;
            }
            if (k == 0) {
                return m;
            }
            r.skip(k);
            m += k;
            records[t] += k;
            if (profile != null) {
                profile.countRun(t, w, from, k, r.addressHigh());
            }
            if (route != null && route.routable) {
                route.run(w, from, k, r.addressHigh());
            }
            if (marks != null && r.position() >= marks.next) {
                marks.note(r);
            }
            if (k < n) {
                return m;
            }
        }
        return m;
    }

    /** Advances the call trace to its next call record and checks it against the detailed one. */
    private boolean matchCall(int t, TraceReader r, TraceReader c, long callNo, Path file, Path callFile) {
        int k;
        while ((k = c.next()) != RecordKind.EOF && k != RecordKind.CALL) {
            // a call trace may hold other records; only call records are matched
        }
        if (k == RecordKind.EOF) {
            mismatch(t, String.format("call trace %s ends after %d call records, but detailed trace %s has call"
                    + " record #%d (byte offset %d, %s)", callFile, callNo, file, callNo + 1, r.offset(),
                    CallType.name(r.callType())));
            return false;
        }
        if (c.callType() != r.callType()) {
            mismatch(t, String.format("call trace %s call record #%d (byte offset %d) is %s, but detailed trace %s"
                    + " call record #%d (byte offset %d) is %s: the traces do not match", callFile, callNo + 1,
                    c.offset(), CallType.name(c.callType()), file, callNo + 1, r.offset(),
                    CallType.name(r.callType())));
            return false;
        }
        return true;
    }

    private void mismatch(int t, String msg) {
        if (!o.skipBadRecords) {
            throw new BadInputException(msg);
        }
        problems.add(msg + "; later times of thread " + t + " come from its detailed trace");
    }

    static void close(TraceReader r) {
        if (r != null) {
            try {
                r.close();
            } catch (IOException e) {
                throw new UncheckedIOException(r.name() + ": " + e.getMessage(), e);
            }
        }
    }
}
