package org.dsmscope.ciat.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.regex.Pattern;
import org.dsmscope.ciat.CiatOptions;
import org.dsmscope.ciat.CiatResult;
import org.dsmscope.ciat.FakeReplay;
import org.dsmscope.replay.Phase;
import org.dsmscope.replay.PhaseTimes;
import org.junit.jupiter.api.Test;

/** The report's tags (seed 000 §3), the JSON contract's names (issue 4), and concurrency (seed 001 §5.3). */
class ReportFormatTest {
    private static final Pattern TAG = Pattern.compile("R(\\d+|x)T(\\d+|x)L(\\d\\d): .+");

    /** A serial phase, a parallel phase with times, a serial phase. */
    static CiatResult sample(long busy1) {
        CiatOptions o = new CiatOptions();
        o.writeFiles = false;
        o.busy1 = busy1;
        FakeReplay r = new FakeReplay(2, o).start(Phase.Kind.SERIAL);
        r.store(0, 0x1000, 4).fetch(0, 0x400000, 4);
        PhaseTimes serial = new PhaseTimes(2);
        serial.busy[0] = 10;
        serial.idle[1] = 10;
        r.endPhase(serial);
        // RAW (0->1), WAW (0->1), RAW (1->0), WAR (1 invalidates 0)
        r.phase(Phase.Kind.PARALLEL).load(1, 0x1000, 4).store(1, 0x1000, 4).load(0, 0x1000, 4).store(1, 0x1000, 4);
        PhaseTimes par = new PhaseTimes(2);
        par.busy[0] = 60;
        par.imbalance[0] = 20;
        par.busy[1] = 70;
        par.contention[1] = 10;
        r.endPhase(par);
        r.phase(Phase.Kind.SERIAL).load(0, 0x1000, 4);
        PhaseTimes end = new PhaseTimes(2);
        end.busy[0] = 10;
        end.idle[1] = 10;
        r.endPhase(end);
        return r.finish();
    }

    @Test
    void everyReportLine_afterTheHeader_hasATag() throws Exception {
        StringWriter w = new StringWriter();
        TextReport.write(sample(-1), w);
        String[] lines = w.toString().split("\n");
        assertEquals("# dsmscope-ciat-report 1", lines[0]);
        List<String> lls = new ArrayList<>();
        for (int i = 2; i < lines.length; i++) {
            assertTrue(TAG.matcher(lines[i]).matches(), "line " + (i + 1) + ": " + lines[i]);
            lls.add(lines[i].substring(lines[i].indexOf('L') + 1, lines[i].indexOf(':')));
        }
        for (String ll : new String[] {"01", "10", "11", "12", "13", "14", "15", "20", "21", "22", "23", "40", "41",
            "42", "43", "44", "46", "47", "50", "51", "60", "61", "62", "70", "87", "88", "89"}) {
            assertTrue(lls.contains(ll), "ll " + ll + " present in\n" + w);
        }
        String text = w.toString();
        assertTrue(text.contains("R2TxL40: RAW 2 50.00%\n"), text);
        assertTrue(text.contains("R2TxL41: WAR 1 25.00%\n"));
        assertTrue(text.contains("R2TxL42: WAW 1 25.00%\n"));
        assertTrue(text.contains("R2TxL46: I 1 1 100.00%\n"));
        assertTrue(text.contains("RxTxL40: RAW 3 50.00%\n"));
        assertTrue(text.contains("R2T1L60: busy 70 idle 0 imbalance 0 contention 10\n"));
        assertTrue(text.contains("RxTxL62: speedup unknown busy1 unknown processors 2\n"));
        assertTrue(text.contains("RxTxL70: touchedPages 2\n"));
        assertTrue(text.contains("R1T1L47: COMM_MAT 0 0\n"));
    }

    @Test
    void traceWithoutInstructionRecords_saysInstructionCountsAreUnknown_notZero() throws Exception {
        CiatOptions o = new CiatOptions();
        o.writeFiles = false;
        FakeReplay r = new FakeReplay(2, o).start(Phase.Kind.PARALLEL);
        r.store(0, 0x1000, 4).load(1, 0x1000, 4);  // a level 2 trace: accesses, no fetch or branch records
        CiatResult res = r.finish();
        StringWriter w = new StringWriter();
        TextReport.write(res, w);
        String text = w.toString();
        assertTrue(text.contains("\n# instructions not traced: no fetch or branch records (instruction counts need a"
                + " level 3 trace); lines 20-23 say unknown\n"), text);
        assertTrue(text.contains("RxTxL20: fetched_instructions unknown\n"), text);
        assertTrue(text.contains("R1T1L20: fetched_instructions unknown\n"), text);
        assertTrue(text.contains("RxTxL21: taken_branches unknown\n"), text);
        assertTrue(text.contains("RxTxL10: accesses 2 loads 1 50.00% stores 1 50.00%\n"), text);
        JsonNode is = new ObjectMapper().readTree(JsonReport.toJson(res)).path("aggregate").path("instructionStream");
        assertEquals("{\"traced\":false,\"fetched\":null,\"takenBranches\":null,\"procedureCalls\":null,"
                + "\"instrumentedCalls\":null}", is.toString());
        StringWriter traced = new StringWriter();
        TextReport.write(sample(-1), traced);  // one fetch: counted
        assertTrue(traced.toString().contains("RxTxL20: fetched_instructions 1\n"), traced.toString());
        assertTrue(!traced.toString().contains("# instructions not traced"));
    }

    @Test
    void speedup_isBusy1OverTotalTimePerProcessor_seed001Formula() {
        CiatResult res = sample(120);
        // total = busy 150 + idle 20 + imbalance 20 + contention 10 = 200; over p = 2: 100
        assertEquals(1.2, res.speedup(), 1e-12);
        assertEquals(null, sample(-1).speedup());
    }

    @Test
    void aggregateConcurrency_isTheReplaysTotal() {
        CiatResult res = sample(-1);
        assertEquals(80, res.aggregate.times.busy[0]);
        assertEquals(20, res.aggregate.times.idle[1]);
        assertEquals(20, res.aggregate.times.imbalance[0]);
        assertEquals(10, res.aggregate.times.contention[1]);
    }

    @Test
    void json_usesTheContractsFieldNames() throws Exception {
        JsonNode root = new ObjectMapper().readTree(JsonReport.toJson(sample(120)));
        assertEquals(2, root.get("threads").asInt());
        JsonNode ph = root.get("phases").get(1);
        assertEquals(2, ph.get("id").asInt());
        assertEquals("parallel", ph.get("kind").asText());
        JsonNode agg = root.get("aggregate");
        for (String block : new String[] {"accesses", "communication", "accessAge", "concurrency", "memory"}) {
            assertTrue(agg.has(block), block);
        }
        for (String block : new String[] {"accesses", "communication", "accessAge", "concurrency"}) {
            assertTrue(ph.has(block), "phase " + block);
        }
        assertEquals(2, agg.get("accesses").get("loads").asLong() - 1);
        assertEquals(3, agg.get("accesses").get("stores").asLong());
        JsonNode c = agg.get("communication");
        for (String f : new String[] {"raw", "war", "waw", "rar", "sharingDegree", "invalidationDegree", "matrix"}) {
            assertTrue(c.has(f), f);
        }
        assertEquals(3, c.get("raw").asLong());
        assertEquals(1, c.get("invalidationDegree").get(0).asLong(), "index 0 holds I[1]");
        assertEquals(3, c.get("matrix").get(1).get(0).asLong(), "two RAWs by P0 after P1's stores, one WAR");
        assertEquals(2, c.get("matrix").get(0).get(1).asLong(), "RAW and WAW by P1 after P0's store");
        JsonNode a = agg.get("accessAge");
        assertEquals("thread", a.get("scope").asText());
        assertEquals(1, a.get("granularity").asInt());
        assertEquals(2, a.get("infinite").asLong());
        JsonNode first = a.get("cdf").get(0);
        assertEquals(1, first.get("bytes").asLong());
        assertTrue(first.has("accesses"));
        long prev = -1;
        for (Iterator<JsonNode> it = a.get("cdf").elements(); it.hasNext(); ) {
            JsonNode e = it.next();
            assertEquals(Long.bitCount(e.get("bytes").asLong()), 1, "powers of two");
            assertTrue(e.get("accesses").asLong() >= prev, "cumulative");
            prev = e.get("accesses").asLong();
        }
        JsonNode cc = agg.get("concurrency");
        for (String f : new String[] {"busy", "idle", "imbalance", "contention"}) {
            assertEquals(2, cc.get(f).size(), f);
        }
        assertEquals(1.2, cc.get("speedup").asDouble(), 1e-12);
        assertTrue(ph.get("concurrency").get("speedup").isNull());
        JsonNode m = agg.get("memory");
        assertEquals(20, m.size());
        assertEquals(2, m.get("touchedPages").asLong());
        assertEquals(1, m.get("sharedPages").asLong());
    }

    @Test
    void sameResults_giveTheSameBytes() throws Exception {
        assertEquals(JsonReport.toJson(sample(120)), JsonReport.toJson(sample(120)));
        StringWriter a = new StringWriter();
        StringWriter b = new StringWriter();
        TextReport.write(sample(120), a);
        TextReport.write(sample(120), b);
        assertEquals(a.toString(), b.toString());
    }
}
