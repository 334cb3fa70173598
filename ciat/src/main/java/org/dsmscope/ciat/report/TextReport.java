package org.dsmscope.ciat.report;

import java.io.IOException;
import java.io.Writer;
import java.util.Locale;
import org.dsmscope.ciat.CiatResult;
import org.dsmscope.ciat.PhaseStats;
import org.dsmscope.ciat.age.AgeStats;
import org.dsmscope.ciat.comm.CommStats;
import org.dsmscope.ciat.memory.MemoryFigures;
import org.dsmscope.ciat.mix.MixStats;
import org.dsmscope.replay.ProblemLines;
import org.dsmscope.trace.CallType;

/**
 * The CIAT report file {@code NAME.p.ciat_report} (seed 000 §3 and §4), format {@value #FORMAT}: header lines
 * (a run continued past problems says so there: {@code # incomplete: ...}, one {@code # problem: ...} each; a trace
 * with a recorded interleaving says what it cannot tell: {@code # recorded_order: ...}, {@code # sync_variables:
 * ...}, {@link RecordedOrder}), then
 * tagged lines {@code RrTtLll: ...} per phase (r = phase number) and for the aggregate (r = x); t is a thread
 * (or, for COMM_MAT rows, a processor) number, or x for all threads; ll is the data type number listed in the
 * module README. Numbers are plain decimals, percentages with two decimals; lines are in a fixed order.
 */
public final class TextReport {
    /** Format name and version. */
    public static final String FORMAT = "dsmscope-ciat-report 1";

    private final Writer w;
    private String r;
    private boolean instructions;

    private TextReport(Writer w) {
        this.w = w;
    }

    /** Writes the whole report. */
    public static void write(CiatResult res, Writer w) throws IOException {
        TextReport t = new TextReport(w);
        w.write("# " + FORMAT + "\n");
        w.write("# threads " + res.threads + " processors " + res.processors + " phases " + res.phases.size()
                + "\n");
        ProblemLines.write(w, res.problems, res.problemCount);
        for (String l : RecordedOrder.lines(res)) {
            w.write(l);
            w.write('\n');
        }
        if (!res.instructionsTraced()) {
            w.write("# instructions not traced: no fetch or branch records (instruction counts need a level 3"
                    + " trace); lines 20-23 say unknown\n");
        }
        t.instructions = res.instructionsTraced();
        for (PhaseStats p : res.phases) {
            t.r = Integer.toString(p.id);
            t.phase(res, p);
        }
        t.r = "x";
        t.phase(res, res.aggregate);
        t.concurrencyTotal(res);
        t.memory(res.memory);
    }

    private void line(String thread, int ll, String text) throws IOException {
        w.write('R');
        w.write(r);
        w.write('T');
        w.write(thread);
        w.write('L');
        if (ll < 10) {
            w.write('0');
        }
        w.write(Integer.toString(ll));
        w.write(": ");
        w.write(text);
        w.write('\n');
    }

    /** An instruction-stream count, or {@code unknown} when the trace set records no instructions. */
    private String count(long n) {
        return instructions ? Long.toString(n) : "unknown";
    }

    private static String pct(long n, long of) {
        return String.format(Locale.ROOT, "%.2f%%", of == 0 ? 0.0 : 100.0 * n / of);
    }

    private void phase(CiatResult res, PhaseStats p) throws IOException {
        long len = p.endClock >= 0 && p.startClock >= 0 ? p.endClock - p.startClock : -1;
        line("x", 1, "phase " + p.kind + " start " + p.startClock + " end " + p.endClock + " length " + len
                + (p.markerNum >= 0 ? " marker " + p.markerNum : ""));
        mix(p.mix);
        comm(p.comm);
        age(res, p.age);
        concurrency(p);
    }

    private void mix(MixStats m) throws IOException {
        long loads = m.totalLoads(-1);
        long stores = m.totalStores(-1);
        long all = loads + stores;
        line("x", 10, "accesses " + all + " loads " + loads + " " + pct(loads, all) + " stores " + stores + " "
                + pct(stores, all));
        for (int t = 0; t < m.threads; t++) {
            long l = m.totalLoads(t);
            long s = m.totalStores(t);
            line(Integer.toString(t), 10, "accesses " + (l + s) + " loads " + l + " " + pct(l, l + s) + " stores "
                    + s + " " + pct(s, l + s));
        }
        for (int c = 1; c < MixStats.CLASSES; c++) {
            long n = m.loads(c);
            line("x", 11, "load " + MixStats.CLASS_NAMES[c] + " " + n + " " + pct(n, loads));
        }
        for (int c = 0; c < MixStats.CLASSES; c++) {
            long n = m.stores(c);
            line("x", 12, "store " + MixStats.CLASS_NAMES[c] + " " + n + " " + pct(n, stores));
        }
        strings(13, "load_string", m.loadStrings);
        strings(14, "store_string", m.storeStrings);
        line("x", 15, "bytes_accessed " + m.bytesAccessed);
        line("x", 20, "fetched_instructions " + count(m.totalFetched()));
        for (int t = 0; t < m.threads; t++) {
            line(Integer.toString(t), 20, "fetched_instructions " + count(m.fetched[t]));
        }
        line("x", 21, "taken_branches " + count(m.takenBranches));
        line("x", 22, "procedure_calls " + count(m.procedureCalls));
        line("x", 23, "instrumented_calls " + count(m.instrumentedCalls));
        for (int c = 0; c < 256; c++) {
            if (m.callCount[c] != 0) {
                line("x", 30, "call " + CallType.name(c) + " count " + m.callCount[c] + " time_us " + m.callTime[c]
                        + " bytes " + m.callBytes[c] + " wait " + m.callWait[c]);
            }
        }
    }

    private void strings(int ll, String name, long[] h) throws IOException {
        long total = 0;
        for (long n : h) {
            total += n;
        }
        for (int len = 1; len < h.length; len++) {
            if (h[len] != 0) {
                String l = len == MixStats.STRING_MAX ? len + "+" : Integer.toString(len);
                line("x", ll, name + " " + l + " " + h[len] + " " + pct(h[len], total));
            }
        }
    }

    private void comm(CommStats c) throws IOException {
        long d = c.considered;
        line("x", 40, "RAW " + c.raw + " " + pct(c.raw, d));
        line("x", 41, "WAR " + c.war + " " + pct(c.war, d));
        line("x", 42, "WAW " + c.waw + " " + pct(c.waw, d));
        line("x", 43, "RAR " + c.rar + " " + pct(c.rar, d));
        line("x", 44, "communication " + c.events() + " " + pct(c.events(), d) + " data_accesses " + d
                + " sync_excluded " + c.syncExcluded);
        long sumS = 0;
        long sumI = 0;
        for (int k = 1; k < c.sharing.length; k++) {
            sumS += c.sharing[k];
            sumI += c.invalidation[k];
        }
        for (int k = 1; k < c.sharing.length; k++) {
            if (c.sharing[k] != 0) {
                line("x", 45, "S " + k + " " + c.sharing[k] + " " + pct(c.sharing[k], sumS));
            }
        }
        for (int k = 1; k < c.invalidation.length; k++) {
            if (c.invalidation[k] != 0) {
                line("x", 46, "I " + k + " " + c.invalidation[k] + " " + pct(c.invalidation[k], sumI));
            }
        }
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < c.processors; i++) {
            sb.setLength(0);
            sb.append("COMM_MAT");
            for (int j = 0; j < c.processors; j++) {
                sb.append(' ').append(c.matrix(i, j));
            }
            line(Integer.toString(i), 47, sb.toString());
        }
    }

    private void age(CiatResult res, AgeStats a) throws IOException {
        line("x", 50, "access_age scope " + res.ageScope + " granularity " + res.ageGranularity + " sample "
                + res.sampleRate + " accesses " + a.accesses + " infinite " + a.infinite + " "
                + pct(a.infinite, a.accesses));
        long cum = 0;
        int last = a.lastBucket();
        for (int k = 0; k <= last; k++) {
            cum += a.buckets[k];
            line("x", 51, "age_le " + (1L << k) + " " + cum + " " + pct(cum, a.accesses));
        }
    }

    private void concurrency(PhaseStats p) throws IOException {
        long b = 0;
        long i = 0;
        long m = 0;
        long c = 0;
        long s = 0;
        for (int t = 0; t < p.times.threads(); t++) {
            line(Integer.toString(t), 60, "busy " + p.times.busy[t] + " idle " + p.times.idle[t] + " imbalance "
                    + p.times.imbalance[t] + " contention " + p.times.contention[t]);
            b += p.times.busy[t];
            i += p.times.idle[t];
            m += p.times.imbalance[t];
            c += p.times.contention[t];
            s += p.times.spin[t];
        }
        long all = b + i + m + c + s;
        line("x", 61, "busy " + b + " " + pct(b, all) + " idle " + i + " " + pct(i, all) + " imbalance " + m + " "
                + pct(m, all) + " contention " + c + " " + pct(c, all));
        for (int t = 0; t < p.times.threads(); t++) {
            line(Integer.toString(t), 63, "spin " + p.times.spin[t]);
        }
        line("x", 64, "spin " + s + " " + pct(s, all));
    }

    private void concurrencyTotal(CiatResult res) throws IOException {
        Double s = res.speedup();
        line("x", 62, "speedup " + (s == null ? "unknown" : String.format(Locale.ROOT, "%.4f", s)) + " busy1 "
                + (res.busy1 < 0 ? "unknown" : Long.toString(res.busy1)) + " processors " + res.processors);
    }

    private void memory(MemoryFigures m) throws IOException {
        for (int n = 1; n <= 18; n++) {
            line("x", 69 + n, MemoryFigures.NAMES[n - 1] + " " + m.get(n));
        }
        line("x", 88, MemoryFigures.NAMES[18] + " " + String.format(Locale.ROOT, "%.4f", m.dataLocalityIndex));
        line("x", 89, MemoryFigures.NAMES[19] + " " + String.format(Locale.ROOT, "%.4f", m.codeLocalityIndex));
    }
}
