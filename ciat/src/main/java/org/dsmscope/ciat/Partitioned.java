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
        List<CiatResult> results = new ArrayList<>();
        for (Ciat c : parts) {
            results.add(c.result());
        }
        return merge(results, logs(parts));
    }

    /**
     * Merges the partitions' shipped results ({@link CiatPart}, e.g. from Spark tasks), partition 0 first, into the
     * serial run's result.
     */
    public static CiatResult mergeParts(List<CiatPart> parts) {
        List<CiatResult> results = new ArrayList<>();
        List<PartialLog> logs = new ArrayList<>();
        for (CiatPart p : parts) {
            results.add(p.result());
            logs.add(p.partialLog());
        }
        return merge(results, logs);
    }

    private static List<PartialLog> logs(List<Ciat> parts) {
        List<PartialLog> logs = new ArrayList<>();
        for (Ciat c : parts) {
            logs.add(c.partialLog());
        }
        return logs;
    }

    /** Merges the partitions' results and partial logs of page-crossing accesses, partition 0 first. */
    private static CiatResult merge(List<CiatResult> parts, List<PartialLog> logs) {
        CiatResult r0 = parts.get(0);
        List<PhaseStats> phases = r0.phases;
        for (int k = 1; k < parts.size(); k++) {
            List<PhaseStats> pk = parts.get(k).phases;
            for (int i = 0; i < phases.size(); i++) {
                phases.get(i).mix.add(pk.get(i).mix); // partitions other than 0: data accesses only
                phases.get(i).comm.add(pk.get(i).comm);
                phases.get(i).age.add(pk.get(i).age);
            }
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
        for (CiatResult r : parts) {
            figs.add(r.memory);
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
        List<long[]> rows = new ArrayList<>();
        List<SpillSource> spills = new ArrayList<>();
        for (Ciat c : parts) {
            rows.addAll(c.memoryUsage().pageRows());
            spills.add(() -> c.seqEvents().reader());
        }
        try {
            write(res, ctx.traces().base(), parts.get(0).options(), rows, logs(parts), spills, written);
        } finally {
            for (Ciat c : parts) {
                if (c.seqEvents() != null) {
                    c.seqEvents().delete();
                }
            }
        }
        return res;
    }

    /**
     * Merges the partitions' shipped results ({@link CiatPart}, partition 0 first) and writes the outputs of
     * {@link #mergeAndWrite} under {@code base} with options {@code opt} (those of the partitions' analyses), as a
     * serial run with these problems ({@code problems}, {@code problemCount}) would; {@code written} receives the
     * paths. Returns the merged result.
     */
    public static CiatResult mergeAndWriteParts(List<CiatPart> parts, String base, CiatOptions opt,
            List<String> problems, long problemCount, List<Path> written) {
        CiatResult res = mergeParts(parts).withProblems(problems, problemCount);
        List<long[]> rows = new ArrayList<>();
        List<PartialLog> logs = new ArrayList<>();
        List<SpillSource> spills = new ArrayList<>();
        for (CiatPart p : parts) {
            rows.addAll(p.pageRows());
            logs.add(p.partialLog());
            spills.add(p::events);
        }
        write(res, base, opt, rows, logs, spills, written);
        return res;
    }

    /** Opens one partition's spilled events for reading ({@link SeqEventFile#read}). */
    private interface SpillSource {
        DataInputStream open() throws IOException;
    }

    private static void write(CiatResult res, String base, CiatOptions opt, List<long[]> rows, List<PartialLog> logs,
            List<SpillSource> spills, List<Path> written) {
        Path report = Paths.get(base + ".ciat_report");
        Ciat.writeText(report, w -> TextReport.write(res, w));
        written.add(report);
        Path mf = Paths.get(base + ".memory");
        Ciat.writeText(mf, w -> MemoryUsage.write(w, rows));
        written.add(mf);
        if (opt.events) {
            Path ev = Paths.get(base + ".ciat_events");
            EventTrace out = EventTrace.open(ev);
            boolean merged = false;
            try {
                mergeEvents(logs, spills, out);
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
    }

    /** Merges the partitions' event spills and the combined page-crossing events by access number. */
    static void mergeEvents(List<Ciat> parts, CommEventSink out) {
        List<SpillSource> spills = new ArrayList<>();
        for (Ciat c : parts) {
            spills.add(() -> c.seqEvents().reader());
        }
        try {
            mergeEvents(logs(parts), spills, out);
        } finally {
            for (Ciat c : parts) {
                c.seqEvents().delete();
            }
        }
    }

    private static void mergeEvents(List<PartialLog> logs, List<SpillSource> spills, CommEventSink out) {
        List<long[]> crossing = new ArrayList<>();
        PartialLog.combine(logs, (seq, phaseIndex, clock, cpu, type, degree, pairs, np) -> {
            if (type >= 0) {
                crossing.add(new long[] {seq, clock, type, cpu, degree});
            }
        });
        List<DataInputStream> readers = new ArrayList<>();
        try {
            for (SpillSource s : spills) {
                readers.add(s.open());
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
        }
    }
}
