package org.dsmscope.ciat.report;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import org.dsmscope.ciat.CiatResult;
import org.dsmscope.ciat.PhaseStats;
import org.dsmscope.ciat.age.AgeStats;
import org.dsmscope.ciat.comm.CommStats;
import org.dsmscope.ciat.memory.MemoryFigures;
import org.dsmscope.ciat.mix.MixStats;
import org.dsmscope.trace.CallType;
import org.dsmscope.trace.OutputFile;

/**
 * CIAT's results as JSON ({@code --json FILE}), format {@value #FORMAT}: the contract of issue 4 (threads,
 * phases[] with id/kind and the blocks, aggregate with accesses, communication, accessAge, concurrency and
 * memory), plus extra blocks (instructionStream, calls), and after "processors" an "incomplete" object
 * (problemCount, problems[]) only when the replay continued past problems ({@code --skip-bad-records}), then a
 * "recordedOrder" object only for a trace with a recorded interleaving or named sync ranges ({@link
 * RecordedOrder}). Fields
 * are written in a fixed order (tree nodes keep insertion order), so the same results give the same bytes.
 */
public final class JsonReport {
    /** Format name and version, the value of the top-level "format" field. */
    public static final String FORMAT = "dsmscope-ciat-json 1";
    private static final ObjectMapper MAPPER = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    private JsonReport() {
    }

    /** Writes the JSON document to {@code file}. */
    public static void write(CiatResult res, Path file) {
        ObjectNode tree = tree(res);
        OutputFile.write(file, tmp -> MAPPER.writeValue(tmp.toFile(), tree));
    }

    /** The JSON document as a string. */
    public static String toJson(CiatResult res) {
        try {
            return MAPPER.writeValueAsString(tree(res));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The JSON tree. */
    public static ObjectNode tree(CiatResult res) {
        ObjectNode root = MAPPER.createObjectNode();
        root.put("format", FORMAT);
        root.put("threads", res.threads);
        root.put("processors", res.processors);
        if (res.problemCount > 0) {
            // only in a run continued past problems (--skip-bad-records): the results are partial
            ObjectNode inc = root.putObject("incomplete");
            inc.put("problemCount", res.problemCount);
            ArrayNode list = inc.putArray("problems");
            res.problems.forEach(list::add);
        }
        RecordedOrder.json(root, res);
        ArrayNode phases = root.putArray("phases");
        for (PhaseStats p : res.phases) {
            ObjectNode o = phases.addObject();
            o.put("id", p.id);
            o.put("kind", p.kind);
            if (p.markerNum >= 0) {
                o.put("marker", p.markerNum);
            }
            o.put("startClock", p.startClock);
            o.put("endClock", p.endClock);
            blocks(o, res, p, null);
        }
        ObjectNode agg = root.putObject("aggregate");
        agg.put("startClock", res.aggregate.startClock);
        agg.put("endClock", res.aggregate.endClock);
        blocks(agg, res, res.aggregate, res.speedup());
        memory(agg.putObject("memory"), res.memory);
        return root;
    }

    private static void blocks(ObjectNode o, CiatResult res, PhaseStats p, Double speedup) {
        MixStats m = p.mix;
        ObjectNode acc = o.putObject("accesses");
        acc.put("loads", m.totalLoads(-1));
        acc.put("stores", m.totalStores(-1));
        acc.put("bytes", m.bytesAccessed);
        ObjectNode lc = acc.putObject("load");
        for (int c = 1; c < MixStats.CLASSES; c++) {
            lc.put(MixStats.CLASS_NAMES[c], m.loads(c));
        }
        ObjectNode sc = acc.putObject("store");
        for (int c = 0; c < MixStats.CLASSES; c++) {
            sc.put(MixStats.CLASS_NAMES[c], m.stores(c));
        }
        ArrayNode lt = acc.putArray("loadsPerThread");
        ArrayNode st = acc.putArray("storesPerThread");
        for (int t = 0; t < m.threads; t++) {
            lt.add(m.totalLoads(t));
            st.add(m.totalStores(t));
        }
        strings(acc.putArray("loadStrings"), m.loadStrings);
        strings(acc.putArray("storeStrings"), m.storeStrings);
        ObjectNode is = o.putObject("instructionStream");
        boolean traced = res.instructionsTraced();
        is.put("traced", traced);
        if (traced) {
            is.put("fetched", m.totalFetched());
            is.put("takenBranches", m.takenBranches);
            is.put("procedureCalls", m.procedureCalls);
            is.put("instrumentedCalls", m.instrumentedCalls);
        } else {
            // level 1 and 2 traces record no instructions: their counts are unknown, not zero
            is.putNull("fetched");
            is.putNull("takenBranches");
            is.putNull("procedureCalls");
            is.putNull("instrumentedCalls");
        }
        ArrayNode calls = o.putArray("calls");
        for (int c = 0; c < 256; c++) {
            if (m.callCount[c] != 0) {
                ObjectNode k = calls.addObject();
                k.put("type", CallType.name(c));
                k.put("count", m.callCount[c]);
                k.put("timeMicros", m.callTime[c]);
                k.put("bytes", m.callBytes[c]);
                k.put("waitClocks", m.callWait[c]);
            }
        }
        comm(o.putObject("communication"), p.comm);
        age(o.putObject("accessAge"), res, p.age);
        ObjectNode cc = o.putObject("concurrency");
        ArrayNode busy = cc.putArray("busy");
        ArrayNode idle = cc.putArray("idle");
        ArrayNode imb = cc.putArray("imbalance");
        ArrayNode con = cc.putArray("contention");
        ArrayNode spin = cc.putArray("spin");
        for (int t = 0; t < p.times.threads(); t++) {
            spin.add(p.times.spin[t]);
            busy.add(p.times.busy[t]);
            idle.add(p.times.idle[t]);
            imb.add(p.times.imbalance[t]);
            con.add(p.times.contention[t]);
        }
        if (speedup == null) {
            cc.putNull("speedup");
        } else {
            cc.put("speedup", speedup);
        }
    }

    private static void strings(ArrayNode a, long[] h) {
        for (int len = 1; len < h.length; len++) {
            if (h[len] != 0) {
                ObjectNode o = a.addObject();
                o.put("length", len);
                if (len == MixStats.STRING_MAX) {
                    o.put("orMore", true);
                }
                o.put("count", h[len]);
            }
        }
    }

    private static void comm(ObjectNode o, CommStats c) {
        o.put("raw", c.raw);
        o.put("war", c.war);
        o.put("waw", c.waw);
        o.put("rar", c.rar);
        o.put("dataAccesses", c.considered);
        o.put("syncExcluded", c.syncExcluded);
        ArrayNode s = o.putArray("sharingDegree");
        ArrayNode i = o.putArray("invalidationDegree");
        for (int k = 1; k < c.sharing.length; k++) {
            s.add(c.sharing[k]);
            i.add(c.invalidation[k]);
        }
        ArrayNode mat = o.putArray("matrix");
        for (int r = 0; r < c.processors; r++) {
            ArrayNode row = mat.addArray();
            for (int j = 0; j < c.processors; j++) {
                row.add(c.matrix(r, j));
            }
        }
    }

    private static void age(ObjectNode o, CiatResult res, AgeStats a) {
        o.put("scope", res.ageScope);
        o.put("granularity", res.ageGranularity);
        o.put("sample", res.sampleRate);
        o.put("accesses", a.accesses);
        o.put("infinite", a.infinite);
        ArrayNode cdf = o.putArray("cdf");
        long cum = 0;
        for (int k = 0; k <= a.lastBucket(); k++) {
            cum += a.buckets[k];
            ObjectNode e = cdf.addObject();
            e.put("bytes", 1L << k);
            e.put("accesses", cum);
        }
    }

    private static void memory(ObjectNode o, MemoryFigures m) {
        for (int n = 1; n <= 18; n++) {
            o.put(MemoryFigures.NAMES[n - 1], m.get(n));
        }
        o.put(MemoryFigures.NAMES[18], m.dataLocalityIndex);
        o.put(MemoryFigures.NAMES[19], m.codeLocalityIndex);
    }
}
