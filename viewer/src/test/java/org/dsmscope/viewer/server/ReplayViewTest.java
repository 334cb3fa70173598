package org.dsmscope.viewer.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.dsmscope.replay.Analysis;
import org.dsmscope.replay.PhaseTimes;
import org.dsmscope.replay.Replay;
import org.dsmscope.replay.ReplayContext;
import org.dsmscope.replay.ReplayOptions;
import org.dsmscope.replay.gen.ForkJoinGen;
import org.dsmscope.trace.TraceSet;
import org.dsmscope.viewer.export.ChromeTrace;
import org.dsmscope.viewer.model.ReplaySource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A replayed trace set (a generated fork-join run with locks and barriers) on the page in headless Chromium: one
 * bar per thread whose waits add up to the replay's {@link PhaseTimes}, lock hand-offs as many as the Chrome
 * export draws, barrier releases, phases.
 */
class ReplayViewTest {
    @TempDir
    Path dir;

    /** Keeps the replay's total times. */
    static final class Totals implements Analysis {
        PhaseTimes total;

        @Override
        public void end(ReplayContext ctx, PhaseTimes t) {
            total = t;
        }
    }

    @Test
    @SuppressWarnings("unchecked")
    void oneBarPerThread_waitsSumToPhaseTimes_lockAndBarrierArrows() throws Exception {
        ForkJoinGen.Params p = new ForkJoinGen.Params();
        p.threads = 4;
        p.instructions = 20_000;
        p.lockRate = 0.01;
        p.barriers = 3;
        TraceSet set = ForkJoinGen.write(dir, "fj", p);
        ReplaySource view = new ReplaySource("fj");
        ChromeTrace export = new ChromeTrace(dir.resolve("fj.json"), 1.0, 1_000_000);
        Totals totals = new Totals();
        new Replay(set, null, new ReplayOptions()).add(view).add(export).add(totals).run();
        try (ViewServer server = new ViewServer(List.of(view), "127.0.0.1", 0, null);
                Browser b = Browser.start()) {
            b.driver.get("http://127.0.0.1:" + server.port() + "/");
            b.awaitReady();
            Map<String, Object> counts = (Map<String, Object>) b.js("return window.dsmview.counts()");
            assertEquals(4, ((Number) counts.get("lanes")).intValue());
            Map<String, Object> arrows = (Map<String, Object>) counts.get("arrows");
            assertTrue(export.flows() > 0);
            assertEquals(export.flows(), ((Number) arrows.get("lock")).longValue());
            long barrier = ((Number) arrows.get("barrier")).longValue();
            assertTrue(barrier > 0 && barrier <= (long) p.barriers * (p.threads - 1) + p.threads, "barrier " + barrier);
            List<Map<String, Object>> lanes = (List<Map<String, Object>>) b.js("return window.dsmview.data().lanes");
            for (int t = 0; t < 4; t++) {
                List<Number> w = (List<Number>) lanes.get(t).get("inWindow");
                assertEquals(totals.total.idle[t], w.get(1).longValue() + w.get(4).longValue(), "idle of thread " + t);
                assertEquals(totals.total.imbalance[t], w.get(2).longValue(), "imbalance of thread " + t);
                assertEquals(totals.total.contention[t], w.get(3).longValue(), "contention of thread " + t);
            }
            assertTrue(((List<?>) b.js("return window.dsmview.data().phases")).size() >= 3, "phases as a band");
            List<Map<String, Object>> rows = (List<Map<String, Object>>) b.js("return window.dsmview.perProcess()");
            assertEquals(4, rows.size());
            b.await("return !!document.querySelector('#output .none')");
            assertTrue(b.driver.findElement(org.openqa.selenium.By.cssSelector("#output .none")).getText()
                    .startsWith("a replayed trace set has no standard output"));
            b.screenshot("replay");
            b.view("replay", "#spacetime");
        }
    }
}
