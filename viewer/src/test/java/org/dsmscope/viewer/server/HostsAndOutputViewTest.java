package org.dsmscope.viewer.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.dsmscope.dsm.Launcher;
import org.dsmscope.examples.dsm.WorkQueue;
import org.dsmscope.monitor.event.HostInfo;
import org.dsmscope.monitor.record.RecordingReader;
import org.dsmscope.viewer.model.MonitorSource;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.WebElement;

/**
 * The hosts graph's labels and the output view (seed 002 §4.3, §4.6) in headless Chromium, on a recording of a real
 * {@code dsm run} (two member JVMs of the WorkQueue example started by the {@link Launcher}): each member's icon
 * shows the host and architecture the member recorded, and the output panel shows the lines the program printed,
 * a click on one moving the cursor to its time.
 */
class HostsAndOutputViewTest {
    @TempDir
    static Path dir;
    static Path rec;
    static ViewServer server;
    static Browser browser;
    static String launcherOut;

    @BeforeAll
    static void start() throws Exception {
        Launcher.Options o = new Launcher.Options();
        o.members = 2;
        o.record = dir.resolve("wq.dsmrec");
        o.timeoutSeconds = 120;
        o.command = List.of(WorkQueue.class.getName(), "40");
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int rc = Launcher.run(o, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        launcherOut = out.toString(StandardCharsets.UTF_8);
        assertEquals(0, rc, err.toString(StandardCharsets.UTF_8));
        rec = o.record;
        server = new ViewServer(List.of(MonitorSource.open(rec)), "127.0.0.1", 0, null);
        browser = Browser.start();
        browser.driver.get("http://127.0.0.1:" + server.port() + "/");
        browser.awaitReady();
    }

    @AfterAll
    static void stop() throws Exception {
        if (browser != null) {
            browser.close();
        }
        if (server != null) {
            server.close();
        }
    }

    @Test
    @SuppressWarnings("unchecked")
    void hostIcons_areLabelledWithTheRecordedHostAndArchitecture() throws Exception {
        Map<Integer, HostInfo> recorded;
        try (RecordingReader r = RecordingReader.open(rec)) {
            r.drain();
            recorded = r.hosts();
        }
        assertEquals(2, recorded.size(), "each member recorded its host");
        List<Map<String, Object>> hosts = (List<Map<String, Object>>) browser.js("return window.dsmview.hosts()");
        assertEquals(2, hosts.size());
        for (int p = 0; p < 2; p++) {
            assertEquals("m" + p, hosts.get(p).get("name"));
            assertEquals(recorded.get(p).arch, hosts.get(p).get("arch"));
            assertEquals(System.getProperty("os.arch"), hosts.get(p).get("arch"), "the member JVMs ran here");
            assertEquals(recorded.get(p).host, hosts.get(p).get("host"));
        }
        browser.screenshot("hosts-architecture");
    }

    @Test
    void outputPanel_showsTheLinesTheProgramPrinted_andAClickMovesTheCursorThere() throws Exception {
        String line = "WorkQueue m0: 40 tasks on 2 members, results ok";
        assertTrue(launcherOut.contains("[m0] " + line), launcherOut);
        browser.await("return window.dsmview.outputLines().includes('" + line + "')");
        browser.await("return window.dsmview.outputLines().some((l) => l.startsWith('WorkQueue m1: did '))");
        WebElement el = null;
        for (WebElement e : browser.driver.findElements(By.cssSelector("#output .proc[data-name=m0] .line"))) {
            if (e.getText().endsWith(line)) {
                el = e;
            }
        }
        assertTrue(el != null, "the line is in m0's panel");
        double t = Double.parseDouble(el.getAttribute("data-time"));
        browser.screenshot("output");
        el.click();
        browser.awaitReady();
        List<?> range = (List<?>) browser.js("return window.dsmview.range()");
        double mid = (((Number) range.get(0)).doubleValue() + ((Number) range.get(1)).doubleValue()) / 2;
        assertEquals(t, mid, 1.0, "the window is centred on the line's time");
        assertEquals(t, ((Number) browser.js("return window.dsmview.internal.S.cursor")).doubleValue(), 0.0);
    }
}
