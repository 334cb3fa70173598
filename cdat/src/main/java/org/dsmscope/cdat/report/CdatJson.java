package org.dsmscope.cdat.report;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.file.Path;
import org.dsmscope.cdat.CdatResult;
import org.dsmscope.cdat.Counters;
import org.dsmscope.trace.OutputFile;
import org.dsmscope.trace.cdat.Txn;

/**
 * CDAT's results as JSON ({@code dsmscope cdat --json FILE}), format {@value #FORMAT}: the same figures as the
 * report, named as in the module README ("JSON").
 */
public final class CdatJson {
    /** Format name and version. */
    public static final String FORMAT = "dsmscope-cdat 1";
    private static final ObjectMapper MAPPER = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    private CdatJson() {
    }

    /** The results as a JSON tree. */
    public static ObjectNode tree(CdatResult res) {
        ObjectNode root = MAPPER.createObjectNode();
        root.put("format", FORMAT);
        ObjectNode cfg = root.putObject("config");
        for (String line : res.config.toText().split("\n")) {
            int eq = line.indexOf('=');
            if (eq > 0 && !line.startsWith("#")) {
                cfg.put(line.substring(0, eq).trim(), line.substring(eq + 1).trim());
            }
        }
        root.put("threads", res.threads);
        root.put("replayProcessors", res.replayProcessors);
        root.put("processors", res.config.processors());
        root.put("ioProcessors", res.ioProcessors);
        ArrayNode shared = root.putArray("sharedProcessors");
        for (int[] e : res.config.sharedProcessors(res.replayProcessors)) {
            ObjectNode s = shared.addObject();
            s.put("processor", e[0]);
            s.put("node", res.config.nodeOf(e[0]));
            ArrayNode rp = s.putArray("replayProcessors");
            for (int k = 1; k < e.length; k++) {
                rp.add(e[k]);
            }
        }
        root.put("lines", res.lines);
        root.put("firstTouchedPages", res.firstTouchedPages);
        root.put("problemCount", res.problemCount);
        ArrayNode phases = root.putArray("phases");
        for (CdatResult.PhaseCounts p : res.phases) {
            ObjectNode o = phases.addObject();
            o.put("id", p.id);
            o.put("kind", p.kind);
            o.put("startClock", p.startClock);
            o.put("endClock", p.endClock);
            block(o, p.counters);
        }
        block(root.putObject("aggregate"), res.aggregate);
        return root;
    }

    private static void block(ObjectNode o, Counters c) {
        ObjectNode streams = o.putObject("streams");
        for (int s = 0; s < 3; s++) {
            ObjectNode st = streams.putObject(Counters.STREAMS[s]);
            for (int f = 0; f < 8; f++) {
                st.put(Counters.FIGURES[f], c.streams[s][f]);
            }
        }
        o.put("transactions", c.totalTransactions());
        o.put("requests", c.requests);
        o.put("criticalPath", c.criticalPath);
        o.put("averageLatency", c.averageLatency());
        ObjectNode byType = o.putObject("byType");
        for (int code : Txn.CODES) {
            byType.put(Txn.name(code), c.transactions[code]);
        }
        ObjectNode table = o.putObject("stateTable");
        ArrayNode cols = table.putArray("columns");
        for (int code : Counters.COLUMNS) {
            cols.add(Txn.name(code));
        }
        ArrayNode rows = table.putArray("rows");
        for (int home = 0; home < 2; home++) {
            for (int pr = 0; pr < 3; pr++) {
                for (int st = 1; st <= 4; st++) {
                    ObjectNode row = rows.addObject();
                    row.put("home", home == 0 ? "local" : "remote");
                    row.put("presence", Counters.PRESENCE[pr]);
                    row.put("status", Counters.STATUS[st - 1]);
                    ArrayNode counts = row.putArray("counts");
                    for (long n : c.stateTable[Counters.row(home == 1, pr, st)]) {
                        counts.add(n);
                    }
                }
            }
        }
        o.put("remoteSharingDegree", c.remoteSharingDegree());
        o.put("remoteSharedRequests", c.remoteSharedRequests);
        o.put("replicatedPageOwnershipRequests", c.replicatedStores);
        o.put("interconnectHits", c.interconnectHits);
        ArrayNode procs = o.putArray("processorActivity");
        for (int g = 0; g < c.active.length; g++) {
            ObjectNode p = procs.addObject();
            long a = c.active[g];
            long i = c.idle[g];
            p.put("active", a);
            p.put("idle", i);
            p.put("utilization", a + i == 0 ? 0.0 : (double) a / (a + i));
        }
    }

    /** Writes {@code res} to {@code file} (through its partial sibling). */
    public static void write(CdatResult res, Path file) {
        ObjectNode tree = tree(res);
        OutputFile.write(file, tmp -> MAPPER.writeValue(tmp.toFile(), tree));
    }
}
