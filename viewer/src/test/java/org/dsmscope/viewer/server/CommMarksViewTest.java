package org.dsmscope.viewer.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.dsmscope.ciat.Ciat;
import org.dsmscope.ciat.CiatOptions;
import org.dsmscope.ciat.comm.CommStats;
import org.dsmscope.replay.Replay;
import org.dsmscope.replay.ReplayOptions;
import org.dsmscope.trace.TraceSet;
import org.dsmscope.replay.gen.ForkJoinGen;
import org.dsmscope.viewer.model.ReplaySource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;

/**
 * CIAT's communication events (seed 000 §4.4: RAW, WAR, WAW, RAR) as marks on a replayed trace set in headless
 * Chromium: the page's count of each kind equals CIAT's count, the level filter shows one kind alone, and an
 * event's details name its address and writer.
 */
class CommMarksViewTest {
    @TempDir
    static Path dir;

    @Test
    @SuppressWarnings("unchecked")
    void eachKindsMarks_equalCiatsCount_andFilterOneByOne() throws Exception {
        ForkJoinGen.Params p = new ForkJoinGen.Params();
        p.threads = 3;
        p.instructions = 6_000;
        p.lockRate = 0.01;
        p.barriers = 2;
        TraceSet set = ForkJoinGen.write(dir, "fj", p);
        ReplaySource view = new ReplaySource("fj", true);
        CiatOptions co = new CiatOptions();
        co.writeFiles = false;
        co.listener = view::commEvent;
        Ciat ciat = new Ciat(co);
        new Replay(set, null, new ReplayOptions()).add(ciat).add(view).run();
        CommStats c = ciat.result().aggregate.comm;
        long[] want = {c.raw, c.war, c.waw, c.rar};
        assertTrue(c.raw > 0 && c.war > 0, "the trace set communicates: " + c.raw + " RAW, " + c.war + " WAR");
        try (ViewServer server = new ViewServer(List.of(view), "127.0.0.1", 0, null); Browser b = Browser.start()) {
            for (int k = 0; k < 4; k++) {
                String kind = ReplaySource.COMM_NAMES[k];
                b.driver.get("http://127.0.0.1:" + server.port() + "/#input=0&level=" + kind);
                b.driver.navigate().refresh();
                b.awaitReady();
                Map<String, Object> counts = (Map<String, Object>) b.js("return window.dsmview.counts()");
                assertEquals(want[k], ((Number) counts.get("marks")).longValue(), kind + " marks");
                if (k == 0) {
                    b.screenshot("comm-marks-raw");
                }
            }
            // every kind is a level of the filter, so one click hides it
            b.driver.get("http://127.0.0.1:" + server.port() + "/#input=0&level=replay,RAW,WAR,WAW,RAR");
            b.driver.navigate().refresh();
            b.awaitReady();
            long all = ((Number) ((Map<String, Object>) b.js("return window.dsmview.counts()")).get("marks"))
                    .longValue();
            b.driver.findElement(By.cssSelector("#fLevel input[value=RAW]")).click();
            b.await("return window.dsmview.ready && window.dsmview.counts().marks === " + (all - c.raw));
            b.screenshot("comm-marks");
        }
        int raw = -1;
        for (int id = 0; id < view.timeline().events() && raw < 0; id++) {
            if (view.timeline().kindOf(id) == ReplaySource.COMM) {
                raw = id;
            }
        }
        Map<String, Object> e = Api.event(view.timeline(), raw);
        assertEquals("RAW", e.get("type"));
        Map<String, Object> f = (Map<String, Object>) e.get("fields");
        assertTrue((Long) f.get("address") > 0 && (Long) f.get("size") > 0, f.toString());
        long writer = (Long) f.get("writer");
        assertTrue(writer >= -1 && writer < p.threads, f.toString());
        assertTrue(writer != ((Number) e.get("lane")).longValue(), "a RAW reads what another thread wrote: " + e);
    }
}
