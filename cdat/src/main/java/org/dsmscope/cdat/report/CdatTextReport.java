package org.dsmscope.cdat.report;

import java.io.IOException;
import java.io.Writer;
import java.util.Locale;
import org.dsmscope.cdat.CdatResult;
import org.dsmscope.cdat.Counters;
import org.dsmscope.cdat.Protocol;
import org.dsmscope.replay.ProblemLines;
import org.dsmscope.trace.cdat.Txn;

/**
 * The CDAT report file {@code NAME.p.cdat_report}, format {@value #FORMAT}: header lines ({@code #}: the format, the
 * configuration as simulated, the protocol variant in words, the run's size, problems continued past), then tagged
 * lines {@code RrTtLll: ...} as in CIAT's report: r the phase number or x for the aggregate, t a simulated processor
 * or x, ll the data type listed in the module README. Counts are plain decimals, percentages with two decimals,
 * ratios with four; lines are in a fixed order.
 */
public final class CdatTextReport {
    /** Format name and version. */
    public static final String FORMAT = "dsmscope-cdat-report 1";

    private final Writer w;
    private String r;

    private CdatTextReport(Writer w) {
        this.w = w;
    }

    /** Writes the whole report. */
    public static void write(CdatResult res, Writer w) throws IOException {
        CdatTextReport t = new CdatTextReport(w);
        w.write("# " + FORMAT + "\n");
        for (String line : res.config.toText().split("\n")) {
            if (!line.isEmpty() && !line.startsWith("#") && !line.startsWith("dsmscope-cdat-config")) {
                w.write("# config " + line + "\n");
            }
        }
        w.write("# protocol " + new Protocol(res.config.protocol).describe() + "\n");
        w.write("# threads " + res.threads + " replay_processors " + res.replayProcessors + " processors "
                + res.config.processors() + " io_processors " + res.ioProcessors + " phases " + res.phases.size()
                + "\n");
        for (int[] e : res.config.sharedProcessors(res.replayProcessors)) {
            StringBuilder b = new StringBuilder("# shared_processor " + e[0] + " node " + res.config.nodeOf(e[0])
                    + " replay_processors");
            for (int k = 1; k < e.length; k++) {
                b.append(' ').append(e[k]);
            }
            w.write(b.append('\n').toString());
        }
        ProblemLines.write(w, res.problems, res.problemCount);
        for (CdatResult.PhaseCounts p : res.phases) {
            t.r = Integer.toString(p.id);
            t.line("x", 1, "phase " + p.kind + " start " + p.startClock + " end " + p.endClock);
            t.block(p.counters);
        }
        t.r = "x";
        CdatResult.PhaseCounts first = res.phases.get(0);
        CdatResult.PhaseCounts last = res.phases.get(res.phases.size() - 1);
        t.line("x", 1, "aggregate start " + first.startClock + " end " + last.endClock);
        t.block(res.aggregate);
        t.line("x", 11, "lines " + res.lines + " first_touched_pages " + res.firstTouchedPages);
    }

    private void line(String t, int ll, String text) throws IOException {
        w.write("R" + r + "T" + t + "L" + (ll < 10 ? "0" : "") + ll + ": " + text + "\n");
    }

    private static String pct(long n, long of) {
        return String.format(Locale.ROOT, "%.2f%%", of == 0 ? 0.0 : 100.0 * n / of);
    }

    private void block(Counters c) throws IOException {
        for (int s = 0; s < 3; s++) {
            long[] f = c.streams[s];
            long all = f[Counters.HIT] + f[Counters.MISS];
            StringBuilder b = new StringBuilder(Counters.STREAMS[s]);
            b.append(" accesses ").append(all);
            b.append(" hits ").append(f[Counters.HIT]).append(' ').append(pct(f[Counters.HIT], all));
            b.append(" misses ").append(f[Counters.MISS]).append(' ').append(pct(f[Counters.MISS], all));
            String[] names = {"local", "remote", "local_memory", "local_cache", "remote_memory", "remote_cache"};
            for (int i = 0; i < names.length; i++) {
                long n = f[Counters.MISS_LOCAL + i];
                b.append(' ').append(names[i]).append(' ').append(n).append(' ').append(pct(n, f[Counters.MISS]));
            }
            line("x", 2 + s, b.toString());
        }
        line("x", 5, "transactions " + c.totalTransactions() + " requests " + c.requests + " critical_path "
                + c.criticalPath + " average_latency " + String.format(Locale.ROOT, "%.4f", c.averageLatency()));
        for (int code : Txn.CODES) {
            line("x", 6, String.format(Locale.ROOT, "%02d %s %d", code, Txn.name(code), c.transactions[code]));
        }
        StringBuilder head = new StringBuilder("home presence status");
        for (int code : Counters.COLUMNS) {
            head.append(' ').append(Txn.name(code));
        }
        line("x", 7, head.toString());
        for (int home = 0; home < 2; home++) {
            for (int pr = 0; pr < 3; pr++) {
                for (int st = 1; st <= 4; st++) {
                    StringBuilder b = new StringBuilder(home == 0 ? "local" : "remote");
                    b.append(' ').append(Counters.PRESENCE[pr]).append(' ').append(Counters.STATUS[st - 1]);
                    long[] row = c.stateTable[Counters.row(home == 1, pr, st)];
                    for (long n : row) {
                        b.append(' ').append(n);
                    }
                    line("x", 7, b.toString());
                }
            }
        }
        line("x", 8, "remote_sharing_degree " + String.format(Locale.ROOT, "%.4f", c.remoteSharingDegree())
                + " requests " + c.remoteSharedRequests);
        for (int g = 0; g < c.active.length; g++) {
            long a = c.active[g];
            long i = c.idle[g];
            line(Integer.toString(g), 9, "active " + a + " idle " + i + " utilization " + pct(a, a + i));
        }
        line("x", 10, "replicated_page_ownership_requests " + c.replicatedStores + " interconnect_hits "
                + c.interconnectHits);
    }
}
