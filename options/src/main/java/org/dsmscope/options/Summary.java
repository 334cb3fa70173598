package org.dsmscope.options;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import org.dsmscope.cdat.CdatResult;
import org.dsmscope.cdat.Counters;
import org.dsmscope.cdat.config.CdatConfig;
import org.dsmscope.ciat.CiatResult;
import org.dsmscope.ciat.comm.CommStats;

/**
 * The summary lines on standard output that {@code dsmscope ciat|cdat} and {@code dsmscope cluster ciat|cdat} print
 * alike after an analysis (seed 000 §4 and §5 figures: accesses, communication, hits, transactions), and the lines
 * of a run that continued past problems ({@code --skip-bad-records}).
 */
public final class Summary {
    /** Problems listed at most on standard error; the report lists up to 1000. */
    public static final int PROBLEMS_SHOWN = 10;

    private Summary() {
    }

    /**
     * CIAT's lines of a run that continued past {@code count} problems ({@code list}: those kept, in the order met):
     * the first {@link #PROBLEMS_SHOWN} as warnings on {@code err}, and on {@code out} that the results are partial,
     * naming the report (the first file {@code written}, if any). Nothing for {@code count} 0.
     */
    public static void ciatProblems(PrintWriter out, PrintWriter err, List<String> list, long count,
            List<Path> written) {
        if (count == 0) {
            return;
        }
        for (int i = 0; i < Math.min(list.size(), PROBLEMS_SHOWN); i++) {
            err.println("dsmscope: warning: " + list.get(i));
        }
        if (count > PROBLEMS_SHOWN) {
            err.println("dsmscope: warning: ... and " + (count - PROBLEMS_SHOWN) + " more");
        }
        err.flush();
        out.println("ciat: continued past " + count + " problem(s) (--skip-bad-records): the results cover what could"
                + " be analysed" + (written.isEmpty() ? "" : "; problems listed in " + written.get(0)));
        out.flush();
    }

    /** CDAT's line of a run that continued past {@code count} problems (listed in the report); nothing for 0. */
    public static void cdatProblems(PrintWriter out, long count) {
        if (count > 0) {
            out.println("cdat: continued past " + count + " problem(s) (--skip-bad-records): the results cover what"
                    + " could be analysed; problems listed in the report");
        }
    }

    /** CIAT's line (threads, phases, loads, stores, communication counts) and a line per file {@code written}. */
    public static void ciat(PrintWriter out, CiatResult res, List<Path> written) {
        long loads = res.aggregate.mix.totalLoads(-1);
        long stores = res.aggregate.mix.totalStores(-1);
        CommStats c = res.aggregate.comm;
        out.printf(Locale.ROOT, "ciat: %d threads, %d phases, %d loads, %d stores; RAW %d WAR %d WAW %d RAR %d%n",
                res.threads, res.phases.size(), loads, stores, c.raw, c.war, c.waw, c.rar);
        for (Path p : written) {
            out.println("ciat: wrote " + p);
        }
        out.flush();
    }

    /** CDAT's line of one configuration's machine, data accesses, hits, misses and transactions. */
    public static void cdat(PrintWriter out, CdatResult res) {
        CdatConfig c = res.config;
        Counters a = res.aggregate;
        long[] d = a.streams[Counters.DATA];
        long acc = d[Counters.HIT] + d[Counters.MISS];
        out.printf(Locale.ROOT, "cdat: %s: %d processors in %d nodes, protocol %d, %s; data %d accesses, %.2f%%"
                + " hits; misses %.2f%% local, %.2f%% remote; %d transactions, average latency %.4f%n",
                c.name, c.processors(), c.nodes, c.protocol, c.pagePolicy.label(), acc,
                acc == 0 ? 0.0 : 100.0 * d[Counters.HIT] / acc,
                d[Counters.MISS] == 0 ? 0.0 : 100.0 * d[Counters.MISS_LOCAL] / d[Counters.MISS],
                d[Counters.MISS] == 0 ? 0.0 : 100.0 * d[Counters.MISS_REMOTE] / d[Counters.MISS],
                a.totalTransactions(), a.averageLatency());
    }
}
