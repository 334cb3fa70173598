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
        int[] ioNode = new int[ios];
        for (int k = 0; k < ios; k++) {
            ioNode[k] = ios == 1 ? 0 : cfg.nodeOf(cfg.processorOf(k));
        }
        m = new Machine(cfg, opt.check, opt.hpux, ios, ioNode);
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
        if (opt.writeFiles && c.traces() != null) {
            String base = c.traces().base();
            if (cfg.detailedTrace) {
                detailed = new TrafficWriter(output(base, opt.suffix, "cdat_detailed"));
                m.detailed = detailed;
            }
            if (cfg.generalTrace) {
                general = new TrafficWriter[cfg.processors() + ios];
                for (int g = 0; g < cfg.processors(); g++) {
                    general[g] = new TrafficWriter(output(base, opt.suffix, "cdat_general." + g));
                }
                for (int k = 0; k < ios; k++) {
                    general[cfg.processors() + k] = new TrafficWriter(output(base, opt.suffix,
                            "cdat_general.io" + (k + 1)));
                }
                m.general = general;
            }
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
        m.data(g, clock, ln, store);
        if (size > 1) {
            long last = (address + size - 1) >>> lineShift;
            for (long l = ln + 1; l <= last; l++) {
                m.data(g, clock, l, store);
            }
        }
    }

    @Override
    public void fetch(int thread, int cpu, long clock, long address, int size) {
        int g = procOf[cpu];
        long ln = address >>> lineShift;
        m.fetch(g, clock, ln, 1);
        if (size > 1) {
            long last = (address + size - 1) >>> lineShift;
            for (long l = ln + 1; l <= last; l++) {
                m.fetch(g, clock, l, 1); // an instruction across a line boundary: one access per line, as data
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
            m.fetch(g, c, ln, n);
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
            if (read) {
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
        m.status(g, from, Txn.START_IDLE);
        m.status(g, to, Txn.START_ACTIVE);
    }

    @Override
    public void processorIdle(int cpu, long from, long to) {
        int g = procOf[cpu];
        if (cpusOn[g] == 1) {
            m.status(g, from, Txn.START_IDLE);
            m.status(g, to, Txn.START_ACTIVE);
        }
    }

    @Override
    public void phaseEnd(Phase phase, PhaseTimes times) {
        times(current, times);
        if (ctx.interleaved()) {
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
        if (t == null || ctx.interleaved()) {
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
        Counters agg = new Counters(cfg.processors());
        for (CdatResult.PhaseCounts p : phases) {
            agg.add(p.counters);
        }
        if (opt.check) {
            CoherenceChecker.verify(m);
        }
        result = new CdatResult(cfg, c.threads(), c.processors(), c.ioProcessors(), phases, agg, m.lines(),
                m.placement.firstTouched(), c.problems(), c.problemCount());
        closeTraces();
        if (opt.writeFiles && c.traces() != null) {
            Path report = output(c.traces().base(), opt.suffix, "cdat_report");
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

    private void closeTraces() {
        if (detailed != null) {
            detailed.close();
            written.add(detailed.path());
            detailed = null;
        }
        if (general != null) {
            for (TrafficWriter w : general) {
                w.close();
                written.add(w.path());
            }
            general = null;
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
    }

    /** Runs the coherence checker over the whole machine now (tests; needs {@link CdatOptions#check}). */
    void verify() {
        CoherenceChecker.verify(m);
    }

    Machine machine() {
        return m;
    }
}
