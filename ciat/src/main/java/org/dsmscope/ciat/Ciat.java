package org.dsmscope.ciat;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import org.dsmscope.ciat.age.AccessAge;
import org.dsmscope.ciat.comm.CommEventSink;
import org.dsmscope.ciat.comm.CommStats;
import org.dsmscope.ciat.comm.HeldAccesses;
import org.dsmscope.ciat.comm.Communication;
import org.dsmscope.ciat.comm.PartialLog;
import org.dsmscope.ciat.memory.MemoryFigures;
import org.dsmscope.ciat.memory.MemoryUsage;
import org.dsmscope.ciat.mix.MixStats;
import org.dsmscope.ciat.report.EventTrace;
import org.dsmscope.ciat.report.JsonReport;
import org.dsmscope.ciat.report.TextReport;
import org.dsmscope.ciat.table.LocationState;
import org.dsmscope.ciat.table.PageOwners;
import org.dsmscope.replay.Analysis;
import org.dsmscope.replay.CallEvent;
import org.dsmscope.replay.Phase;
import org.dsmscope.replay.PhaseTimes;
import org.dsmscope.replay.SpinDetector;
import org.dsmscope.replay.ReplayContext;
import org.dsmscope.replay.WorkProfile;
import org.dsmscope.trace.CallType;
import org.dsmscope.trace.OutputFile;
import org.dsmscope.trace.RecordKind;

/**
 * CIAT, the configuration independent analysis (seed 000 §4, seed 001 §5, SPEC §5), as a replay plug-in: the
 * instruction mix, instruction stream and calls ({@link MixStats}), communication ({@link Communication}), access
 * age ({@link AccessAge}), concurrency (from the replay's {@link PhaseTimes}) and memory usage
 * ({@link MemoryUsage}), per phase and aggregate. At {@link #end} it writes {@code NAME.p.ciat_report},
 * {@code NAME.p.memory}, and on request the event trace and JSON.
 *
 * <p>Threading: the replay calls it from one thread (see {@link Analysis}); it is not thread-safe.
 */
public final class Ciat implements Analysis {
    private final CiatOptions opt;
    private ReplayContext ctx;
    private int threads;
    private int processors;
    private Communication comm;
    private AccessAge age;
    private MemoryUsage memory;
    /** Communication also sets memory usage's data-access marks ({@link Communication#accessTouching}). */
    private boolean fused;
    private final List<PhaseStats> phases = new ArrayList<>();
    private PhaseStats current;
    /** Records replayed outside any phase (e.g. the spawn call that ends a serial phase); merged into the next. */
    private PhaseStats pending;
    private int[] runKind;
    private long[] runLength;
    private long[] pendingCall;
    private EventTrace events;
    /** The sink of a serial run: the event trace, or a {@link Tap} feeding it and {@link CiatOptions#listener}. */
    private CommEventSink sink;
    private Tap tap;
    private CiatResult result;
    private final List<Path> written = new ArrayList<>();
    // Partitioned analysis (SPEC §4): this instance keeps the state of its pages, the access-age streams of its
    // threads and the access mix of its threads, as the PartitionPlan deals them; partition 0 also counts the
    // other records (fetches, branches, calls).
    private int part;
    private int parts = 1;
    /** Owner of every page ({@link PartitionPlan#owners}). */
    private PageOwners owners;
    /** Per thread: this partition keeps its access-age stream ({@link PartitionPlan#ageOwner}). */
    private boolean[] ageMine;
    /** Per thread: this partition counts its data accesses in the mix ({@link PartitionPlan#mixOwner}). */
    private boolean[] mixMine;
    /** Per thread: {@link #mixMine} or {@link #ageMine} (always true in a serial run). */
    private boolean[] threadMine;
    private long accessSeq;
    /**
     * Partitioned without a work profile (live streams): until access number {@link #planAt} partition 0 keeps the
     * results of every page and the others keep every page's state without counting (into {@link #silent}), while
     * all count the accesses per page slot (and per thread in the second half); then every partition deals the pages
     * from those counts ({@link PartitionPlan#live}) at the same access, since all see the same accesses.
     */
    private boolean warm;
    private long planAt;
    private long[] warmThreads;
    private long[] warmSlots;
    private CommStats silent;
    private final PartialLog partial = new PartialLog();
    private SeqEventFile seqEvents;
    /**
     * Spin-wait detection (partition 0 only: it sees every access in a replay per partition; in a routed one it is
     * {@link CiatRouter#spinPartition} and gets every access of the threads that may spin and the stores that may
     * concern them).
     */
    private SpinDetector spin;
    /**
     * Per thread: the detector gets its loads (every thread, but in a routed partition only those that may spin,
     * {@code ReplayContext.possibleSpin}: of the others it gets some loads, not all, and only stores matter).
     */
    private boolean[] spinLoads;
    /** A routed partition: an access it gets on no page of its own, of another's thread, came for the detector. */
    private boolean routed;
    /**
     * Runs in the packed layout without a listener (a partition's accesses on one page of its own, without numbered
     * events and not while warm): data accesses held for the fused pass (analysed a batch at a time, in order,
     * before anything else touches the location table: {@link #runHeld}); else null.
     */
    private HeldAccesses held;

    /** CIAT with options {@code opt} (validated here). */
    public Ciat(CiatOptions opt) {
        opt.validate();
        this.opt = opt;
    }

    /** A partition of a routed live run ({@link CiatRouter#live}), publishing its dealt pages there; else null. */
    private LiveOwners liveOwners;

    /**
     * Makes this CIAT a partition of a routed live run (before the replay begins): it publishes the pages it deals
     * from the first accesses to {@code owners}, which the run's router reads, and partition 0 keeps its spin
     * detector (the router gives it every access). Returns this.
     */
    public Ciat liveRouted(LiveOwners owners) {
        this.liveOwners = owners;
        return this;
    }

    @Override
    public void begin(ReplayContext c) {
        this.ctx = c;
        threads = c.threads();
        processors = Math.max(c.processors(), 1);
        LocationState loc = new LocationState(processors, threads);
        comm = new Communication(processors, loc);
        age = new AccessAge(threads, opt.ageScope, opt.ageGranularity, opt.sampleRate);
        memory = new MemoryUsage(loc);
        part = c.partition();
        parts = Math.max(1, c.partitions());
        routed = c.routed();
        spin = part == 0 ? new SpinDetector(threads, null) : null;
        spinLoads = new boolean[threads];
        for (int t = 0; t < threads; t++) {
            // a live routed run's partition 0 gets every access (CiatRouter.live): no prescan marked the spinners
            spinLoads[t] = !routed || liveOwners != null || c.possibleSpin(t);
        }
        PartitionPlan plan = PartitionPlan.of(parts, threads, opt.ageScope == AccessAge.Scope.GLOBAL,
                c.workProfile());
        owners = plan.owners();
        warm = parts > 1 && c.workProfile() == null;
        if (warm) {
            planAt = opt.livePlanAt;
            warmThreads = new long[threads];
            warmSlots = new long[WorkProfile.SLOTS];
            silent = new CommStats(processors);
        }
        ageMine = new boolean[threads];
        mixMine = new boolean[threads];
        threadMine = new boolean[threads];
        for (int t = 0; t < threads; t++) {
            ageMine[t] = plan.ageOwner(t) == part;
            mixMine[t] = plan.mixOwner(t) == part;
            threadMine[t] = ageMine[t] || mixMine[t];
        }
        // while warm, every partition keeps every page's state
        comm.partition(part, warm ? 1 : parts, owners);
        memory.partition(part, warm ? 1 : parts, owners);
        fused = comm.fuses();
        runKind = new int[threads];
        runLength = new long[threads];
        pendingCall = new long[threads];
        java.util.Arrays.fill(pendingCall, -1);
        if (opt.events && parts > 1) {
            Path out = opt.writeFiles ? Paths.get(c.traces().base()).toAbsolutePath().getParent() : null;
            seqEvents = SeqEventFile.create(out);
        } else if (opt.events && opt.writeFiles) {
            Path p = Paths.get(c.traces().base() + ".ciat_events");
            events = EventTrace.open(p);
            written.add(p);
        }
        if (opt.listener != null && parts > 1) {
            throw new IllegalStateException("a communication event listener needs a serial analysis");
        }
        tap = opt.listener == null ? null : new Tap(events, opt.listener);
        sink = tap != null ? tap : events;
        // a partition holds the accesses on one page of its own as a serial run holds them (not while warm, not
        // with numbered events: those take each access's number as it comes)
        held = fused && tap == null && !warm && seqEvents == null ? new HeldAccesses(comm, loc) : null;
    }

    /** Holds a data access for the fused pass ({@link #held}), analysing the held ones first or when full. */
    private void hold(int cpu, int thread, long clock, boolean store, long address, int size, CommStats st,
            CommEventSink sk) {
        if (!held.fits(st, sk)) {
            runHeld();
        }
        if (held.add(cpu, thread, clock, store, address, size, st, sk)) {
            runHeld();
        }
    }

    /** Analyses the held data accesses ({@link #held}): before anything else reads or changes location state. */
    private void runHeld() {
        if (held != null && held.size() > 0) {
            for (int i = 0, k = held.run(); i < k; i++) {
                memory.countOverflow(held.overflowAddress(i));
            }
        }
    }

    @Override
    public void phaseBegin(Phase phase) {
        runHeld();
        age.flush();
        if (current != null) {
            close(null, null);
        }
        current = PhaseStats.of(phase, threads, processors);
        if (pending != null) {
            current.addCounters(pending);
            pending = null;
        }
    }

    private PhaseStats phase() {
        if (current != null) {
            return current;
        }
        // Between phases (the replay announces a phase with its first record, so a call that ends a phase can
        // arrive after phaseEnd): count it in the next phase.
        if (pending == null) {
            pending = new PhaseStats(-1, "pending", -1, threads, processors);
        }
        return pending;
    }

    @Override
    public void access(int thread, int cpu, long clock, int memType, int size, boolean store, long address) {
        if (spin != null && (store || spinLoads[thread])) {
            spin.access(thread, clock, size, store, address);
        }
        if (!threadMine[thread] && !warm && size > 0 && (crossesPage(address, size) ? routed
                && owner(address >>> 12) != part && owner((address + size - 1) >>> 12) != part
                : owner(address >>> 12) != part)) {
            // Partitioned: another partition's thread on another partition's page(s); in a routed partition only
            // the spin detector asked for it (CiatRouter.spinPartition), as for a skipped access. Nothing here
            // depends on whether it is a synchronization variable, so that lookup is not made (it is numbered).
            phase();
            ++accessSeq;
            memory.foreignData(size);
            return;
        }
        access(thread, cpu, clock, memType, size, store, address, size > 0 && ctx.isSyncVariable(address));
    }

    /**
     * Accesses of a routed replay that this partition was not given (another partition's thread on another
     * partition's page): numbered, and their bytes counted, as {@link #access} does for such an access.
     */
    @Override
    public void skipped(int thread, long clock, int count, long bytes) {
        phase();
        accessSeq += count;
        for (long b = bytes; b > 0; b -= Integer.MAX_VALUE) {
            memory.foreignData((int) Math.min(b, Integer.MAX_VALUE));
        }
    }

    /**
     * One data access; {@code sync} tells whether it is to a synchronization variable (size &gt; 0 and
     * {@link ReplayContext#isSyncVariable} of its first byte), decided by the caller ({@link ParallelCiat} asks
     * on the replay thread).
     */
    void access(int thread, int cpu, long clock, int memType, int size, boolean store, long address, boolean sync) {
        if (warm) {
            if (accessSeq < planAt) {
                warmAccess(thread, cpu, clock, memType, size, store, address, sync);
                return;
            }
            dealPages();
        }
        PhaseStats ph = phase();
        long seq = ++accessSeq;
        if (mixMine[thread]) {
            counted(ph, thread, memType, size, store, sync);
        }
        if (parts == 1) {
            if (tap != null) {
                tap.thread = thread;
                tap.address = address;
                tap.size = size;
            }
            if (held != null && !sync && size > 0) {
                memory.dataTotals(size);
                hold(cpu, thread, clock, store, address, size, ph.comm, sink);
            } else if (!sync && size > 0 && fused) {
                // one pass over the location words for communication and memory usage
                memory.dataTotals(size);
                if (!comm.accessTouching(cpu, thread, clock, store, address, size, ph.comm, sink)) {
                    memory.countOverflow(address);
                }
            } else {
                runHeld();
                memory.data(thread, address, size);
                if (!sync) {
                    comm.access(cpu, clock, store, address, size, ph.comm, sink);
                }
            }
        } else if (size <= 0 || crossesPage(address, size) || owner(address >>> 12) == part) {
            // This partition's page, or a page-crossing access (each partition handles its own bytes).
            if (!sync && size > 0 && fused && !crossesPage(address, size)) {
                // on one page of this partition: the one pass, as in a serial run
                memory.dataTotals(size);
                if (held != null) {
                    hold(cpu, thread, clock, store, address, size, ph.comm, null);
                } else {
                    if (seqEvents != null) {
                        seqEvents.seq = seq;
                    }
                    if (!comm.accessTouching(cpu, thread, clock, store, address, size, ph.comm, seqEvents)) {
                        memory.countOverflow(address);
                    }
                }
            } else {
                runHeld();
                memory.data(thread, address, size);
                if (!sync && size > 0) {
                    partitioned(ph, seq, cpu, clock, store, address, size);
                }
            }
        } else {
            memory.foreignData(size);
        }
        if (size > 0 && ageMine[thread]) {
            age.access(thread, address, size, ph.age);
        }
    }

    /**
     * An access before the live plan ({@link #warm}): counted for the plan; its page work done as in a serial run,
     * into this phase's results in partition 0 and into {@link #silent} (no events) in the others.
     */
    private void warmAccess(int thread, int cpu, long clock, int memType, int size, boolean store, long address,
            boolean sync) {
        if (accessSeq >= planAt >>> 1) {
            // threads by the second half only: a main thread that fills the data before it starts the workers
            // makes much of the first accesses and little of the rest
            warmThreads[thread]++;
        }
        if (size > 0) {
            warmSlots[WorkProfile.slotOf(address)]++;
        }
        PhaseStats ph = phase();
        long seq = ++accessSeq;
        if (mixMine[thread]) {
            counted(ph, thread, memType, size, store, sync);
        }
        CommStats st = part == 0 ? ph.comm : silent;
        SeqEventFile sink = part == 0 ? seqEvents : null;
        if (sink != null) {
            sink.seq = seq;
        }
        if (!sync && size > 0 && fused) {
            memory.dataTotals(size);
            if (!comm.accessTouching(cpu, thread, clock, store, address, size, st, sink)) {
                memory.countOverflow(address);
            }
        } else {
            memory.data(thread, address, size);
            if (!sync) {
                comm.access(cpu, clock, store, address, size, st, sink);
            }
        }
        if (size > 0 && ageMine[thread]) {
            age.access(thread, address, size, ph.age);
        }
    }

    /** A data access of a thread whose mix this partition counts: its class, and considered or excluded. */
    private void counted(PhaseStats ph, int thread, int memType, int size, boolean store, boolean sync) {
        mix(ph.mix, thread, memType, size, store);
        if (sync) {
            ph.comm.syncExcluded++;
        } else {
            ph.comm.considered++;
        }
    }

    /** The end of {@link #warm}: the pages dealt from the counts, each partition keeping only its own from now on. */
    private void dealPages() {
        warm = false;
        PartitionPlan plan = PartitionPlan.live(parts, threads, opt.ageScope == AccessAge.Scope.GLOBAL,
                WorkProfile.of(warmThreads, warmSlots, 0));
        owners = plan.owners();
        if (liveOwners != null) {
            liveOwners.publish(owners);
        }
        comm.partition(part, parts, owners);
        memory.partition(part, parts, owners);
        warmThreads = null;
        warmSlots = null;
        silent = null;
    }

    /** True if an access of {@code size} &ge; 1 bytes at {@code address} touches two 4 KiB pages. */
    private static boolean crossesPage(long address, int size) {
        return ((address ^ (address + size - 1)) >>> 12) != 0;
    }

    /** The partition owning a 4 KiB page ({@link PartitionPlan}). */
    private int owner(long page) {
        return owners.owner(page);
    }

    private void partitioned(PhaseStats ph, long seq, int cpu, long clock, boolean store, long address, int size) {
        long firstPage = address >>> 12;
        if (firstPage != (address + size - 1) >>> 12) {
            partial.begin(seq, phases.size(), store, cpu, clock);
            partial.end(comm.accessPartial(cpu, store, address, size, ph.comm, partial));
        } else if (owner(firstPage) == part) {
            if (seqEvents != null) {
                seqEvents.seq = seq;
            }
            comm.access(cpu, clock, store, address, size, ph.comm, seqEvents);
        }
    }

    private void mix(MixStats mix, int thread, int memType, int size, boolean store) {
        int cls = MixStats.classify(memType, size);
        if (store) {
            mix.stores[thread * MixStats.CLASSES + cls]++;
        } else {
            mix.loads[thread * MixStats.CLASSES + cls]++;
        }
        mix.bytesAccessed += size;
        int kind = store ? 2 : 1;
        if (runKind[thread] != kind) {
            endRun(thread, mix);
            runKind[thread] = kind;
        }
        runLength[thread]++;
    }

    private void endRun(int thread, MixStats mix) {
        long n = runLength[thread];
        if (n > 0) {
            int idx = (int) Math.min(n, MixStats.STRING_MAX);
            if (runKind[thread] == 1) {
                mix.loadStrings[idx]++;
            } else {
                mix.storeStrings[idx]++;
            }
        }
        runLength[thread] = 0;
        runKind[thread] = 0;
    }

    @Override
    public void fetch(int thread, int cpu, long clock, long address, int size) {
        if (part == 0) {
            phase().mix.fetched[thread]++;
        }
        runHeld();
        memory.code(thread, address, size);
    }

    @Override
    public void fetchRun(int thread, int cpu, long clock, long address, int count) {
        if (part == 0) {
            phase().mix.fetched[thread] += count;
        }
        runHeld();
        memory.codeRun(thread, address, count, org.dsmscope.replay.InstructionStream.WORD);
    }

    /**
     * Skipped accesses of a thread whose instruction stream a routed partition reconstructs: the fetches and the
     * numbering do not depend on each other's order, so the run's fetches at once ({@link #fetchRun}), then the
     * accesses ({@link #skipped}).
     */
    @Override
    public void skippedFetching(int thread, int cpu, long clock, long address, int count, long bytes) {
        fetchRun(thread, cpu, clock, address, count);
        skipped(thread, clock, count, bytes);
    }

    @Override
    public void branch(int thread, int cpu, long clock, int kind, long source, long target) {
        if (part != 0) {
            return;
        }
        MixStats mix = phase().mix;
        if (kind == RecordKind.BRANCH) {
            mix.takenBranches++;
        } else if (kind == RecordKind.PROC_CALL) {
            mix.procedureCalls++;
            pendingCall[thread] = target;
        } else if (kind == RecordKind.PROC_START) {
            long p = pendingCall[thread];
            if (p >= 0 && (p == target || p == source)) {
                mix.instrumentedCalls++;
            }
            pendingCall[thread] = -1;
        }
    }

    @Override
    public void call(int thread, int cpu, long clock, CallEvent call) {
        if (spin != null) {
            spin.call(thread);
        }
        if (part != 0) {
            return;
        }
        MixStats mix = phase().mix;
        int t = call.type & 0xFF;
        mix.callCount[t]++;
        mix.callTime[t] += Math.max(0, call.duration());
        mix.callWait[t] += call.waitClocks;
        if (t == CallType.FILE_READ || t == CallType.FILE_WRITE) {
            mix.callBytes[t] += call.arg2;
        }
    }

    @Override
    public void waited(int thread, int cpu, long from, long to, int reason) {
        if (spin != null) {
            spin.waited(thread);
        }
    }

    @Override
    public void phaseEnd(Phase phase, PhaseTimes times) {
        if (spin != null) {
            spin.phaseEnd();
        }
        close(times, phase);
        phases.get(phases.size() - 1).endClock = phase.endClock();
    }

    private void close(PhaseTimes times, Phase phase) {
        runHeld();
        age.flush();
        if (current == null) {
            // A phase ended that was never announced (it had no records): keep it, with any pending counts.
            if (phase != null) {
                phaseBegin(phase);
            } else {
                return;
            }
        }
        PhaseStats ph = current;
        for (int t = 0; t < threads; t++) {
            endRun(t, ph.mix);
        }
        if (times != null) {
            ph.times.add(times);
            if (spin != null) {
                spin.book(ph.times, true, opt.spinAsWait);
            }
        }
        phases.add(ph);
        current = null;
    }

    @Override
    public void end(ReplayContext c, PhaseTimes total) {
        runHeld();
        age.flush();
        if (current != null) {
            close(null, null);
        }
        if (phases.isEmpty()) {
            phases.add(new PhaseStats(1, Phase.Kind.SERIAL.label(), -1, threads, processors));
        }
        if (pending != null) {
            PhaseStats last = phases.get(phases.size() - 1);
            for (int t = 0; t < threads; t++) {
                endRun(t, pending.mix);
            }
            last.addCounters(pending);
            pending = null;
        }
        if (warm) {
            // the run ended before the live plan: partition 0 kept the results of every page
            warm = false;
            PageOwners all = PageOwners.ofSlots(new short[WorkProfile.SLOTS]);
            comm.partition(part, parts, all);
            memory.partition(part, parts, all);
        }
        // Write epochs still open at the end close in the last phase (SPEC §5: "or the analysis ends").
        comm.finish(phases.get(phases.size() - 1).comm);
        PhaseStats agg = new PhaseStats(0, "aggregate", -1, threads, processors);
        for (PhaseStats p : phases) {
            agg.addCounters(p);
        }
        agg.startClock = phases.get(0).startClock;
        agg.endClock = phases.get(phases.size() - 1).endClock;
        if (spin != null) {
            // spins decided after the last phase end (none from a replay, which ends its phases) join the last phase
            spin.end();
            spin.book(phases.get(phases.size() - 1).times, true, opt.spinAsWait);
        }
        if (total != null) {
            agg.times.add(total);
            if (spin != null) {
                spin.book(agg.times, false, opt.spinAsWait);
            }
        } else {
            for (PhaseStats p : phases) {
                agg.times.add(p.times);
            }
        }
        MemoryFigures mem = memory.figures(opt.ranges);
        result = new CiatResult(threads, processors, phases, agg, mem, opt.ageScope.label(), opt.ageGranularity,
                opt.sampleRate, opt.busy1, c.problems(), c.problemCount());
        if (events != null) {
            events.close();
        }
        if (seqEvents != null) {
            seqEvents.close();
        }
        if (opt.writeFiles && parts == 1) {
            String base = c.traces().base();
            Path report = Paths.get(base + ".ciat_report");
            writeText(report, w -> TextReport.write(result, w));
            Path mf = Paths.get(base + ".memory");
            writeText(mf, memory::write);
            written.add(0, report);
            written.add(1, mf);
            if (opt.json != null) {
                JsonReport.write(result, opt.json);
                written.add(opt.json);
            }
        }
    }

    /** Something that writes text. */
    interface TextBody {
        void write(Writer w) throws IOException;
    }

    static void writeText(Path p, TextBody body) {
        OutputFile.write(p, tmp -> {
            try (Writer w = new BufferedWriter(Files.newBufferedWriter(tmp, StandardCharsets.UTF_8), 1 << 16)) {
                body.write(w);
            }
        });
    }

    /**
     * Abandons the outputs of a replay that failed before {@link #end}: closes the event trace (or a partition's
     * event spill) and deletes its partial file, so no event trace of an incomplete run is left behind.
     */
    public void abandon() {
        if (events != null) {
            events.abandon();
            events = null;
            sink = null;
            tap = null;
        }
        if (seqEvents != null) {
            try {
                seqEvents.close();
            } catch (java.io.UncheckedIOException e) {
                // abandoned anyway: the failure that led here is the one to report
            }
            seqEvents.delete();
            seqEvents = null;
        }
    }

    /** The results, after {@link #end}. */
    public CiatResult result() {
        return result;
    }

    /** The memory usage state (for tests and the memory figures of benchmarks). */
    public MemoryUsage memoryUsage() {
        return memory;
    }

    /** The communication state. */
    public Communication communication() {
        return comm;
    }

    /** The access-age state. */
    public AccessAge accessAge() {
        return age;
    }

    /** This instance's partition (0 in a plain run). */
    int part() {
        return part;
    }

    /** The partial results of page-crossing accesses (partitioned runs). */
    PartialLog partialLog() {
        return partial;
    }

    /** The event spill file of a partitioned run with events, or null. */
    SeqEventFile seqEvents() {
        return seqEvents;
    }

    /** The options. */
    CiatOptions options() {
        return opt;
    }

    /** Files written, report first. */
    public List<Path> written() {
        return List.copyOf(written);
    }

    /** Passes each event to the event trace (if written) and to the listener with the current access. */
    private static final class Tap implements CommEventSink {
        private final CommEventSink trace;
        private final org.dsmscope.ciat.comm.CommEventListener listener;
        int thread;
        long address;
        int size;

        Tap(CommEventSink trace, org.dsmscope.ciat.comm.CommEventListener listener) {
            this.trace = trace;
            this.listener = listener;
        }

        @Override
        public void event(long clock, int type, int processor, int degree) {
            if (trace != null) {
                trace.event(clock, type, processor, degree);
            }
            listener.event(clock, type, processor, degree, thread, address, size);
        }
    }
}
