package org.dsmscope.ciat;

import java.io.DataInputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import org.dsmscope.ciat.comm.CommEventSink;
import org.dsmscope.ciat.comm.CommStats;
import org.dsmscope.ciat.comm.PartialLog;
import org.dsmscope.ciat.memory.MemoryFigures;
import org.dsmscope.ciat.memory.MemoryUsage;
import org.dsmscope.ciat.report.EventTrace;
import org.dsmscope.ciat.report.JsonReport;
import org.dsmscope.ciat.report.TextReport;
import org.dsmscope.replay.ReplayContext;

/**
 * Merges the CIAT instances of a partitioned replay (SPEC §4 "Partitioning", {@code Replay.runPartitioned}) into
 * the result a serial run gives, and writes the outputs. Partition k kept the pages, the access-age streams and
 * the access mix (counts, strings, bytes, data accesses considered) of the threads that the {@link PartitionPlan}
 * gave it; partition 0 also counted the other records (instruction stream, calls, times). Page-crossing accesses
 * were logged as partial results and are combined here by access number.
 */
public final class Partitioned {
    private Partitioned() {
    }

    /** Merges the partitions' results (each instance after {@code end}); partition 0 first. */
    public static CiatResult merge(List<Ciat> parts) {
        Ciat c0 = parts.get(0);
        CiatResult r0 = c0.result();
        List<PhaseStats> phases = r0.phases;
        for (int k = 1; k < parts.size(); k++) {
            List<PhaseStats> pk = parts.get(k).result().phases;
            for (int i = 0; i < phases.size(); i++) {
                phases.get(i).mix.add(pk.get(i).mix); // partitions other than 0: data accesses only
                phases.get(i).comm.add(pk.get(i).comm);
                phases.get(i).age.add(pk.get(i).age);
            }
        }
        List<PartialLog> logs = new ArrayList<>();
        for (Ciat c : parts) {
            logs.add(c.partialLog());
        }
        PartialLog.combine(logs, (seq, phaseIndex, clock, cpu, type, degree, pairs, np) -> {
            CommStats st = phases.get(Math.min(phaseIndex, phases.size() - 1)).comm;
            count(st, type, degree);
            for (int q = 0; q < np; q++) {
                st.matrix.increment(pairs[q]);
            }
        });
        PhaseStats agg = new PhaseStats(0, "aggregate", -1, r0.threads, r0.processors);
        for (PhaseStats p : phases) {
            agg.mix.add(p.mix);
            agg.comm.add(p.comm);
            agg.age.add(p.age);
        }
        agg.startClock = r0.aggregate.startClock;
        agg.endClock = r0.aggregate.endClock;
        agg.times.add(r0.aggregate.times);
        List<MemoryFigures> figs = new ArrayList<>();
        for (Ciat c : parts) {
            figs.add(c.result().memory);
        }
        return new CiatResult(r0.threads, r0.processors, phases, agg, MemoryFigures.merge(figs), r0.ageScope,
                r0.ageGranularity, r0.sampleRate, r0.busy1);
    }

    private static void count(CommStats st, int type, int degree) {
        switch (type) {
            case CommEventSink.RAW: st.raw++; break;
            case CommEventSink.RAR: st.rar++; break;
            case CommEventSink.WAR: st.war++; st.invalidation[degree]++; break;
            case CommEventSink.WAW: st.waw++; break;
            default: break;
        }
    }

    /**
     * Merges and writes {@code base.ciat_report} (base: the replay's trace set), {@code base.memory}, the event
     * trace (with {@code -ciat_events}) and the JSON file; returns the merged result with the replay's problems.
     * {@code written} receives the paths.
     */
    public static CiatResult mergeAndWrite(List<Ciat> parts, ReplayContext ctx, List<Path> written) {
        CiatResult res = merge(parts).withProblems(ctx.problems(), ctx.problemCount());
        String base = ctx.traces().base();
        CiatOptions opt = parts.get(0).options();
        Path report = Paths.get(base + ".ciat_report");
        Ciat.writeText(report, w -> TextReport.write(res, w));
        written.add(report);
        List<long[]> rows = new ArrayList<>();
        for (Ciat c : parts) {
            rows.addAll(c.memoryUsage().pageRows());
        }
        Path mf = Paths.get(base + ".memory");
        Ciat.writeText(mf, w -> MemoryUsage.write(w, rows));
        written.add(mf);
        if (opt.events) {
            Path ev = Paths.get(base + ".ciat_events");
            EventTrace out = EventTrace.open(ev);
            boolean merged = false;
            try {
                mergeEvents(parts, out);
                merged = true;
            } finally {
                if (merged) {
                    out.close();
                } else {
                    out.abandon();
                }
            }
            written.add(ev);
        }
        if (opt.json != null) {
            JsonReport.write(res, opt.json);
            written.add(opt.json);
        }
        return res;
    }

    /** Merges the partitions' event spills and the combined page-crossing events by access number. */
    static void mergeEvents(List<Ciat> parts, CommEventSink out) {
        List<long[]> crossing = new ArrayList<>();
        List<PartialLog> logs = new ArrayList<>();
        for (Ciat c : parts) {
            logs.add(c.partialLog());
        }
        PartialLog.combine(logs, (seq, phaseIndex, clock, cpu, type, degree, pairs, np) -> {
            if (type >= 0) {
                crossing.add(new long[] {seq, clock, type, cpu, degree});
            }
        });
        List<DataInputStream> readers = new ArrayList<>();
        try {
            for (Ciat c : parts) {
                readers.add(c.seqEvents().reader());
            }
            long[][] head = new long[readers.size()][];
            for (int i = 0; i < readers.size(); i++) {
                head[i] = SeqEventFile.read(readers.get(i), new long[5]);
            }
            int ci = 0;
            while (true) {
                int best = -1;
                for (int i = 0; i < head.length; i++) {
                    if (head[i] != null && (best < 0 || head[i][0] < head[best][0])) {
                        best = i;
                    }
                }
                long[] c = ci < crossing.size() ? crossing.get(ci) : null;
                if (best < 0 && c == null) {
                    break;
                }
                if (c != null && (best < 0 || c[0] < head[best][0])) {
                    out.event(c[1], (int) c[2], (int) c[3], (int) c[4]);
                    ci++;
                } else {
                    long[] h = head[best];
                    out.event(h[1], (int) h[2], (int) h[3], (int) h[4]);
                    head[best] = SeqEventFile.read(readers.get(best), h);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read a temporary event file: " + e.getMessage(), e);
        } finally {
            for (DataInputStream r : readers) {
                try {
                    r.close();
                } catch (IOException e) {
                    // closing a temporary file
                }
            }
            for (Ciat c : parts) {
                c.seqEvents().delete();
            }
        }
    }
}
