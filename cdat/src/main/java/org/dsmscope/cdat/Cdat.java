package org.dsmscope.cdat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import org.dsmscope.cdat.config.CdatConfig;
import org.dsmscope.cdat.config.PagePolicy;
import org.dsmscope.cdat.report.CdatJson;
import org.dsmscope.cdat.report.CdatTextReport;
import org.dsmscope.replay.Analysis;
import org.dsmscope.replay.Phase;
import org.dsmscope.replay.PhaseTimes;
import org.dsmscope.replay.ReplayContext;
import org.dsmscope.trace.BadInputException;
import org.dsmscope.trace.OutputFile;
import org.dsmscope.trace.cdat.TrafficWriter;
import org.dsmscope.trace.cdat.Txn;
import org.dsmscope.trace.memory.MemoryUsageFile;

/**
 * CDAT as a plug-in of the replay engine (seed 000 §5, SPEC §6): feeds every data access, instruction fetch and
 * (with {@code -handle_io}) disk transfer of the replay to the simulated {@link Machine} of one configuration, counts
 * per phase, and at the end writes {@code NAME.p.cdat_report}, the general and detailed traffic traces the
 * configuration asks for, and on request JSON. Replay processor {@code cpu} runs on the configuration's processor
 * {@link CdatConfig#processorOf}; several replay processors may share one. Several {@code Cdat} instances (several
 * configurations) can be fed by one replay.
 *
 * <p>In a partitioned replay (SPEC §4 "Partitioning", {@link ReplayContext#partition}) partition k of N simulates
 * only the lines whose set index in the configuration's caches ({@link #partitionSets}) lies in its k-th contiguous
 * range of N ({@code CacheArray.Deal#partOf}): every cache set, directory entry and interconnect cache set lives in one partition. Each partition still notes
 * the page of every other line it is given where placement depends on the first reference (1Touch, Oracle, {@code
 * -HPUX}), so pages get the serial run's homes; partition 0 alone counts the processors' times. A routed partition
 * ({@link CdatRouter}) is given its own lines and at least each thread's first reference to each such page, and
 * counts the accesses it skips as steps of the traffic order. {@link #merge} adds the partitions' counts into the
 * serial run's results (cdat/README.md "Partitions").
 */
public final class Cdat implements Analysis {
    private final CdatConfig cfg;
    private final CdatOptions opt;
    private Machine m;
    private ReplayContext ctx;
    private int[] procOf = new int[0];
    private int lineShift;
    private final List<CdatResult.PhaseCounts> phases = new ArrayList<>();
    private Counters current;
    private long phaseStart = -1;
    private CdatResult result;
    private final List<Path> written = new ArrayList<>();
    private TrafficWriter detailed;
    private TrafficWriter[] general;
    /** Threads (traces) and replay processors on each simulated processor. */
    private int[] mapped;
    private int[] cpusOn;
    /** Simulates every line (a plain run, or one partition); else only those {@link #owns} accepts. */
    private boolean all = true;
    private int part;
    private int parts = 1;
    private long partSetMask;
    /** Per set index (of {@link #partitionSets}): true if this partition simulates its lines. */
    private boolean[] mySets;
    /** A partition notes the page of every other line, as placement depends on first references. */
    private boolean notePages;
    private int pageOfLine;
    private long[] pageNoted;
    private int[] ioNode;
    private ReplayContext endCtx;
    /** The traffic traces (file 0 detailed, 1 + K general of processor K), and the files written (parts). */
    private Path[] traceOuts;
    private Path[] traceParts;
    private TrafficOrder order;

    /** CDAT for configuration {@code cfg}. */
    public Cdat(CdatConfig cfg, CdatOptions opt) {
        this.cfg = cfg;
        this.opt = opt.copy();
    }

    /** The results, after the replay ended. */
    public CdatResult result() {
        return result;
    }

    /** The files written, report first. */
    public List<Path> written() {
        return List.copyOf(written);
    }

    /** The name of output {@code kind} ({@code cdat_report}, {@code cdat_detailed}, ...) for trace set base. */
    public static Path output(String base, String suffix, String kind) {
        return Paths.get(base + (suffix == null ? "" : "." + suffix) + "." + kind);
    }

    @Override
    public void begin(ReplayContext c) {
        ctx = c;
        lineShift = Integer.numberOfTrailingZeros(cfg.lineSize);
        int ios = c.ioProcessors();
        ioNode = new int[ios];
        for (int k = 0; k < ios; k++) {
            ioNode[k] = ios == 1 ? 0 : cfg.nodeOf(cfg.processorOf(k));
        }
        part = c.partition();
        parts = c.partitions();
        // a partition's caches hold only the sets of its lines
        m = new Machine(cfg, opt.check, opt.hpux, ios, ioNode,
                parts > 1 ? new CacheArray.Deal(partitionSets(cfg), part, parts) : null);
        procOf = new int[Math.max(c.processors(), c.threads())];
        for (int i = 0; i < procOf.length; i++) {
            procOf[i] = cfg.processorOf(i);
        }
        mapped = new int[cfg.processors()];
        for (int i = 0; i < c.threads(); i++) {
            mapped[procOf[i]]++;
        }
        cpusOn = new int[cfg.processors()];
        for (int i = 0; i < c.processors(); i++) {
            cpusOn[procOf[i]]++;
        }
        if (cfg.pagePolicy == PagePolicy.RR2 || cfg.pagePolicy == PagePolicy.ORACLE) {
            readUsage(c.traces() == null ? null : c.traces().base());
        }
        current = new Counters(cfg.processors());
        m.counters = current;
        if (parts > 1) {
            all = false;
            int sets = partitionSets(cfg);
            partSetMask = sets - 1L;
            mySets = new boolean[sets];
            for (int i = 0; i < sets; i++) {
                mySets[i] = CacheArray.Deal.partOf(i, Integer.numberOfTrailingZeros(sets), parts) == part;
            }
            notePages = m.placement.dependsOnFirstTouch();
            pageOfLine = Integer.numberOfTrailingZeros(cfg.pageSize) - lineShift;
            pageNoted = new long[1024];
            java.util.Arrays.fill(pageNoted, -1);
        }
        if (opt.writeFiles && c.traces() != null && (cfg.detailedTrace || cfg.generalTrace)) {
            openTraces(c.traces().base(), ios);
        }
    }

    /**
     * Opens the traffic traces the configuration asks for: the outputs themselves, or in a partitioned run this
     * partition's hidden parts of them, with the log of their steps ({@link TrafficOrder}).
     */
    private void openTraces(String base, int ios) {
        traceOuts = new Path[1 + cfg.processors() + ios];
        if (cfg.detailedTrace) {
            traceOuts[0] = output(base, opt.suffix, "cdat_detailed");
        }
        if (cfg.generalTrace) {
            for (int g = 0; g < cfg.processors(); g++) {
                traceOuts[1 + g] = output(base, opt.suffix, "cdat_general." + g);
            }
            for (int k = 0; k < ios; k++) {
                traceOuts[1 + cfg.processors() + k] = output(base, opt.suffix, "cdat_general.io" + (k + 1));
            }
        }
        traceParts = traceOuts.clone();
        if (parts > 1) {
            for (int f = 0; f < traceParts.length; f++) {
                traceParts[f] = traceParts[f] == null ? null : TrafficOrder.part(traceParts[f], part);
            }
            order = new TrafficOrder(TrafficOrder.part(output(base, opt.suffix, "cdat_order"), part));
            m.order = order;
        }
        if (cfg.detailedTrace) {
            detailed = new TrafficWriter(traceParts[0]);
            m.detailed = detailed;
        }
        if (cfg.generalTrace) {
            general = new TrafficWriter[cfg.processors() + ios];
            for (int f = 0; f < general.length; f++) {
                general[f] = new TrafficWriter(traceParts[1 + f]);
            }
            m.general = general;
        }
    }

    private void readUsage(String base) {
        Path file = opt.memoryFile != null ? opt.memoryFile : base == null ? null : Paths.get(base + ".memory");
        String why = "page policy " + cfg.pagePolicy.label() + " reads the memory usage file";
        if (file == null || !Files.exists(file)) {
            throw new BadInputException((file == null ? "no memory usage file" : file + ": no such file") + ": " + why
                    + " (write it with dsmscope ciat on the same traces, or name it with --memory FILE)");
        }
        int pageShift = Integer.numberOfTrailingZeros(cfg.pageSize);
        try {
            MemoryUsageFile.read(file, size -> usagePage = size, p -> {
                // each of the file's pages spread over ours (either may be the larger)
                long first = p.page * usagePage >>> pageShift;
                long last = ((p.page + 1) * usagePage - 1) >>> pageShift;
                for (long q = first; q <= last; q++) {
                    m.placement.usage(q, p.codeBytes > 0, p.owner);
                }
            });
        } catch (IOException e) {
            throw new UncheckedIOException(file + ": cannot read: " + e.getMessage(), e);
        }
    }

    private long usagePage;

    @Override
    public void phaseBegin(Phase phase) {
        phaseStart = phase.startClock();
    }

    @Override
    public void access(int thread, int cpu, long clock, int memType, int size, boolean store, long address) {
        int g = procOf[cpu];
        long ln = address >>> lineShift;
        data(g, clock, ln, store);
        if (size > 1) {
            long last = (address + size - 1) >>> lineShift;
            for (long l = ln + 1; l <= last; l++) {
                data(g, clock, l, store);
            }
        }
    }

    /**
     * Accesses a routed partition was not given ({@code Replay.runRouted}): none is on this partition's lines, and
     * each is one line ({@link CdatRouter} gives every partition the others where traffic traces are written), so
     * they are {@code count} steps of the serial order of the traffic-trace records.
     */
    @Override
    public void skipped(int thread, long clock, int count, long bytes) {
        if (order != null) {
            order.skip(count);
        }
    }

    /**
     * Skipped accesses of a thread whose instruction stream a routed partition reconstructs: none is on this
     * partition's lines, so without traffic traces the fetches come as one run ({@link #fetchRun}: the same caches,
     * counters and placement); with them each fetch and each skipped access is its own step of the serial order, so
     * they come one by one as in the serial run.
     */
    @Override
    public void skippedFetching(int thread, int cpu, long clock, long address, int count, long bytes) {
        if (order != null) {
            Analysis.super.skippedFetching(thread, cpu, clock, address, count, bytes);
        } else {
            fetchRun(thread, cpu, clock, address, count);
        }
    }

    private void data(int g, long clock, long ln, boolean store) {
        if (order != null) {
            order.next();
        }
        if (all || owns(ln)) {
            m.data(g, clock, ln, store);
        } else if (notePages) {
            notePage(ln, g / cfg.processorsPerNode);
        }
    }

    private void fetchLine(int g, long clock, long ln, long count) {
        if (order != null) {
            order.next();
        }
        if (all || owns(ln)) {
            m.fetch(g, clock, ln, count);
        } else if (notePages) {
            notePage(ln, g / cfg.processorsPerNode);
        }
    }

    /** True if this partition simulates line {@code ln}. */
    private boolean owns(long ln) {
        return mySets[(int) (ln & partSetMask)];
    }

    /**
     * Another partition's line referenced from {@code node}: its page is placed here as in the serial run, where
     * the first reference to any line of a page places it (placement never changes a page's home afterwards, so a
     * page noted once needs no second look).
     */
    private void notePage(long ln, int node) {
        long page = ln >>> pageOfLine;
        int i = (int) page & (pageNoted.length - 1);
        if (pageNoted[i] != page) {
            pageNoted[i] = page;
            m.placement.home(page, node);
        }
    }

    @Override
    public void fetch(int thread, int cpu, long clock, long address, int size) {
        int g = procOf[cpu];
        long ln = address >>> lineShift;
        fetchLine(g, clock, ln, 1);
        if (size > 1) {
            long last = (address + size - 1) >>> lineShift;
            for (long l = ln + 1; l <= last; l++) {
                fetchLine(g, clock, l, 1); // an instruction across a line boundary: one access per line, as data
            }
        }
    }

    @Override
    public void fetchRun(int thread, int cpu, long clock, long address, int count) {
        int g = procOf[cpu];
        long a = address;
        long end = address + 4L * count;
        long c = clock;
        while (a < end) {
            long ln = a >>> lineShift;
            long lineEnd = (ln + 1) << lineShift;
            long n = (Math.min(lineEnd, end) - a + 3) >>> 2;
            fetchLine(g, c, ln, n);
            a += 4 * n;
            c += n;
        }
    }

    @Override
    public void io(int thread, int cpu, int ioProcessor, long clock, boolean read, long address, long bytes) {
        if (bytes <= 0) {
            return;
        }
        long first = address >>> lineShift;
        long last = (address + bytes - 1) >>> lineShift;
        for (long l = first; l <= last; l++) {
            if (order != null) {
                order.next();
            }
            if (!all && !owns(l)) {
                if (notePages) {
                    notePage(l, ioNode[ioProcessor]);
                }
            } else if (read) {
                m.ioStore(ioProcessor, clock, l);
            } else {
                m.ioLoad(ioProcessor, clock, l);
            }
        }
    }

    @Override
    public void waited(int thread, int cpu, long from, long to, int reason) {
        if (ctx.interleaved()) {
            return; // a process waits while its processor runs others: processorIdle gives the processor's
        }
        int g = procOf[cpu];
        if (mapped[g] != 1) {
            return; // several threads share the processor: one thread's wait is not the processor's
        }
        statusPair(g, from, to);
    }

    /** Processor {@code g} idle from {@code from} to {@code to}: a status record pair, by partition 0 alone. */
    private void statusPair(int g, long from, long to) {
        if (order != null) {
            order.next();
        }
        if (part == 0) {
            m.status(g, from, Txn.START_IDLE);
            m.status(g, to, Txn.START_ACTIVE);
        }
    }

    @Override
    public void processorIdle(int cpu, long from, long to) {
        int g = procOf[cpu];
        if (cpusOn[g] == 1) {
            statusPair(g, from, to);
        }
    }

    @Override
    public void phaseEnd(Phase phase, PhaseTimes times) {
        times(current, times);
        if (ctx.interleaved() && part == 0) {
            // -i: one parallel phase; a processor is active for the instructions its segments execute
            long span = phase.endClock() - Math.max(0, phase.startClock());
            for (int cpu = 0; cpu < ctx.processors(); cpu++) {
                long busy = ctx.processorBusy(cpu);
                if (busy >= 0) {
                    current.active[procOf[cpu]] += busy;
                    current.idle[procOf[cpu]] += Math.max(0, span - busy);
                }
            }
        }
        phases.add(new CdatResult.PhaseCounts(phase.id(), phase.kind().label(), phase.startClock(), phase.endClock(),
                current));
        current = new Counters(cfg.processors());
        m.counters = current;
    }

    /**
     * Active and idle cycles per simulated processor from the replay's times per thread (busy; idle, imbalance and
     * contention). With {@code -i}, whose times are per process, {@link #phaseEnd} takes them from the schedule.
     */
    private void times(Counters into, PhaseTimes t) {
        if (t == null || ctx.interleaved() || part != 0) {
            return;
        }
        for (int i = 0; i < t.threads(); i++) {
            int g = procOf[Math.min(i, procOf.length - 1)];
            into.active[g] += t.busy[i];
            into.idle[g] += t.idle[i] + t.imbalance[i] + t.contention[i];
        }
    }

    @Override
    public void end(ReplayContext c, PhaseTimes total) {
        if (phases.isEmpty()) {
            phases.add(new CdatResult.PhaseCounts(1, Phase.Kind.SERIAL.label(), phaseStart, -1, current));
            times(current, total);
        } else {
            phases.get(phases.size() - 1).counters.add(current); // records after the last phase's end, if any
        }
        if (opt.check) {
            CoherenceChecker.verify(m);
        }
        closeTraces();
        if (parts > 1) {
            endCtx = c; // a partition's counts: merge() makes the results
            return;
        }
        finish(c, c.traces() == null ? null : c.traces().base(), phases, m.lines(), m.placement.firstTouched());
    }

    /** The results from the phases' counts; the report and JSON written, as asked. */
    private void finish(ReplayContext c, String base, List<CdatResult.PhaseCounts> counts, long lines,
            long firstTouched) {
        Counters agg = new Counters(cfg.processors());
        for (CdatResult.PhaseCounts p : counts) {
            agg.add(p.counters);
        }
        result = new CdatResult(cfg, c.threads(), c.processors(), c.ioProcessors(), counts, agg, lines,
                firstTouched, c.problems(), c.problemCount());
        if (opt.writeFiles && base != null) {
            Path report = output(base, opt.suffix, "cdat_report");
            OutputFile.write(report, tmp -> {
                try (var w = Files.newBufferedWriter(tmp, java.nio.charset.StandardCharsets.UTF_8)) {
                    CdatTextReport.write(result, w);
                }
            });
            written.add(0, report);
            if (opt.json != null) {
                CdatJson.write(result, opt.json);
                written.add(opt.json);
            }
        }
    }

    /**
     * The smallest number of sets among the configuration's caches (data, instruction, interconnect), at most
     * 65,536: partitions deal the set indexes of this many sets in contiguous ranges, so the lines of any one set of any
     * cache (their line numbers agree modulo its sets, a multiple of this) fall in one partition. At most this many
     * partitions have work.
     */
    public static int partitionSets(CdatConfig cfg) {
        int s = Math.min(MAX_PARTITION_SETS, Math.min(cfg.dataCache.sets(), cfg.instructionCache.sets()));
        return cfg.interconnectCache == null ? s : Math.min(s, cfg.interconnectCache.sets());
    }

    /** At most this many set indexes are dealt (a power of two, so it divides every larger cache's sets). */
    static final int MAX_PARTITION_SETS = 1 << 16;

    /**
     * Merges the partitions of one configuration's partitioned run ({@link ReplayContext#partitions}), in partition
     * order: partition 0 gets the serial run's results (the counts of every partition's lines added, its own
     * processor times, directory lines summed, first-touched pages as every partition placed them) and writes the
     * report and JSON as a serial run does. Returns partition 0.
     */
    public static Cdat merge(List<Cdat> partitions) {
        Cdat first = partitions.get(0);
        if (first.parts == 1) {
            return first;
        }
        if (partitions.size() != first.parts) {
            throw new IllegalArgumentException(partitions.size() + " partitions given of " + first.parts);
        }
        List<List<CdatResult.PhaseCounts>> counts = new ArrayList<>();
        long lines = 0;
        for (Cdat c : partitions) {
            counts.add(c.phases);
            lines += c.m.lines();
        }
        List<CdatResult.PhaseCounts> merged = sum(first.cfg, counts);
        if (first.order != null) {
            List<TrafficOrder> orders = new ArrayList<>();
            List<Path[]> parts = new ArrayList<>();
            for (Cdat c : partitions) {
                orders.add(c.order);
                parts.add(c.traceParts);
            }
            TrafficOrder.merge(orders, parts, first.traceOuts);
            for (Path p : first.traceOuts) {
                if (p != null) {
                    first.written.add(p);
                }
            }
        }
        ReplayContext c = first.endCtx;
        first.finish(c, c.traces() == null ? null : c.traces().base(), merged, lines, first.m.placement.firstTouched());
        return first;
    }

    /** The partitions' counts per phase added up, phase by phase (every partition saw the same phases). */
    private static List<CdatResult.PhaseCounts> sum(CdatConfig cfg, List<List<CdatResult.PhaseCounts>> parts) {
        List<CdatResult.PhaseCounts> first = parts.get(0);
        List<CdatResult.PhaseCounts> merged = new ArrayList<>();
        for (int i = 0; i < first.size(); i++) {
            CdatResult.PhaseCounts p = first.get(i);
            Counters sum = new Counters(cfg.processors());
            for (List<CdatResult.PhaseCounts> c : parts) {
                if (c.size() != first.size() || c.get(i).id != p.id) {
                    throw new IllegalStateException("partitions saw different phases");
                }
                sum.add(c.get(i).counters);
            }
            merged.add(new CdatResult.PhaseCounts(p.id, p.kind, p.startClock, p.endClock, sum));
        }
        return merged;
    }

    /**
     * What {@link #mergeParts} needs of this partition, after its replay's end: its counts per phase, its directory
     * entries and the pages it placed by first reference (a compact serializable value, not the machine's state).
     */
    public CdatPart part() {
        return new CdatPart(phases, m.lines(), m.placement.firstTouched());
    }

    /**
     * Merges the shipped partitions ({@link #part}, partition 0 first) of one configuration's partitioned run made
     * elsewhere (Spark tasks) into a CDAT holding the serial run's results, and writes its report and JSON under
     * {@code base} as a serial run does; {@code ctx} is the run's context (threads, processors, problems). Traffic
     * traces are not merged here.
     */
    public static Cdat mergeParts(CdatConfig cfg, CdatOptions opt, List<CdatPart> parts, ReplayContext ctx,
            String base) {
        List<List<CdatResult.PhaseCounts>> counts = new ArrayList<>();
        long lines = 0;
        for (CdatPart p : parts) {
            counts.add(p.phases());
            lines += p.lines();
        }
        Cdat merged = new Cdat(cfg, opt);
        merged.finish(ctx, base, sum(cfg, counts), lines, parts.get(0).firstTouchedPages());
        return merged;
    }

    private void closeTraces() {
        if (detailed != null) {
            detailed.close();
            detailed = null;
        }
        if (general != null) {
            for (TrafficWriter w : general) {
                w.close();
            }
            general = null;
        }
        if (order != null) {
            order.close();
        }
        if (traceOuts != null && parts == 1) {
            for (Path p : traceOuts) {
                if (p != null) {
                    written.add(p);
                }
            }
        }
    }

    /** Abandons the traffic traces of a replay that failed: nothing partial is left under their names. */
    public void abandon() {
        if (detailed != null) {
            detailed.abort();
            detailed = null;
        }
        if (general != null) {
            for (TrafficWriter w : general) {
                w.abort();
            }
            general = null;
        }
        if (order != null) {
            order.delete();
            for (Path p : traceParts) {
                TrafficOrder.deleteQuietly(p);
            }
        }
    }

    /** Runs the coherence checker over the whole machine now (tests; needs {@link CdatOptions#check}). */
    void verify() {
        CoherenceChecker.verify(m);
    }

    Machine machine() {
        return m;
    }
}
