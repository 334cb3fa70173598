package org.dsmscope.ciat.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.StringWriter;
import org.dsmscope.ciat.CiatOptions;
import org.dsmscope.ciat.CiatResult;
import org.dsmscope.ciat.FakeReplay;
import org.dsmscope.replay.Phase;
import org.dsmscope.replay.PhaseTimes;
import org.junit.jupiter.api.Test;

/**
 * Spin time in CIAT's results (module README "Spin time"): a hand-built parallel phase where thread 1 re-reads a
 * flag 20 times until thread 0 stores it; its 20 clocks leave busy for L63, L64 and JSON {@code spin}, or with
 * {@code --spin-as-wait} go to imbalance; the speedup's total time is unchanged.
 */
class SpinReportTest {
    private static final long FLAG = 0x9000;

    static CiatResult run(boolean asWait) {
        CiatOptions o = new CiatOptions();
        o.writeFiles = false;
        o.spinAsWait = asWait;
        o.busy1 = 100;
        FakeReplay r = new FakeReplay(2, o).start(Phase.Kind.PARALLEL);
        for (int i = 0; i < 20; i++) {
            r.load(1, FLAG, 4);
        }
        r.store(0, FLAG, 4).load(1, 0x1000, 4);
        PhaseTimes par = new PhaseTimes(2);
        par.busy[0] = 50;
        par.imbalance[0] = 10;
        par.busy[1] = 60;
        r.endPhase(par);
        return r.finish();
    }

    @Test
    void flagReReadUntilAnotherThreadStores_isSpinTime_inTheReportAndJson() throws Exception {
        CiatResult res = run(false);
        String text = report(res);
        assertTrue(text.contains("R1T1L60: busy 40 idle 0 imbalance 0 contention 0\n"), text);
        assertTrue(text.contains("R1T1L63: spin 20\n"), text);
        assertTrue(text.contains("R1T0L63: spin 0\n"), text);
        assertTrue(text.contains("R1TxL61: busy 90 75.00% idle 0 0.00% imbalance 10 8.33% contention 0 0.00%\n"), text);
        assertTrue(text.contains("R1TxL64: spin 20 16.67%\n"), text);
        assertTrue(text.contains("RxTxL64: spin 20 16.67%\n"), text);
        JsonNode cc = new ObjectMapper().readTree(JsonReport.toJson(res)).path("aggregate").path("concurrency");
        assertEquals("[0,20]", cc.path("spin").toString());
        assertEquals("[50,40]", cc.path("busy").toString());
        assertEquals(100 / (120 / 2.0), res.speedup(), 1e-12, "the total time includes spin");
    }

    @Test
    void spinAsWait_booksTheSpinAsImbalance() throws Exception {
        CiatResult res = run(true);
        String text = report(res);
        assertTrue(text.contains("R1T1L60: busy 40 idle 0 imbalance 20 contention 0\n"), text);
        assertTrue(text.contains("RxTxL64: spin 0 0.00%\n"), text);
        assertEquals(20, res.aggregate.times.imbalance[1]);
        assertEquals(100 / (120 / 2.0), res.speedup(), 1e-12);
    }

    private static String report(CiatResult res) throws java.io.IOException {
        StringWriter w = new StringWriter();
        TextReport.write(res, w);
        return w.toString();
    }
}
