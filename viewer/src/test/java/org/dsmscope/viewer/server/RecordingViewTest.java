package org.dsmscope.viewer.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.dsmscope.monitor.analysis.EventcountChecker;
import org.dsmscope.monitor.analysis.ProcessTimes;
import org.dsmscope.monitor.analysis.Summary;
import org.dsmscope.monitor.analysis.SyncArrows;
import org.dsmscope.monitor.event.EventBuffer;
import org.dsmscope.monitor.event.EventType;
import org.dsmscope.monitor.record.RecordingReader;
import org.dsmscope.viewer.model.MonitorSource;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.Keys;
import org.openqa.selenium.TimeoutException;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.interactions.Actions;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * The page in real headless Chromium on a recording made here by the DSM runtime (MatMul on three members, 5 %
 * loss): each view against numbers known from the recording (seed 002 §4.3-4.6).
 */
class RecordingViewTest {
    @TempDir
    static Path dir;
    static Path rec;
    static Summary summary;
    static MonitorSource source;
    static ViewServer server;
    static Browser browser;

    @BeforeAll
    static void start() throws Exception {
        rec = Fixtures.matmul(dir.resolve("matmul.dsmrec"), 3, 24, 0.05);
        summary = Summary.of(rec, false, EventcountChecker.DEFAULT_THRESHOLD);
        source = MonitorSource.open(rec);
        server = new ViewServer(List.of(source), "127.0.0.1", 0, null);
        browser = Browser.start();
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

    @BeforeEach
    void open() {
        browser.driver.get("http://127.0.0.1:" + server.port() + "/");
        browser.awaitReady();
    }

    @SuppressWarnings("unchecked")
    private Map<String, Object> counts() {
        return (Map<String, Object>) browser.js("return window.dsmview.counts()");
    }

    private long drawnArrows(String kind) {
        return ((Number) ((Map<String, Object>) counts().get("arrows")).get(kind)).longValue();
    }

    @Test
    void spaceTimeView_showsOneBarPerProcess_andTheSynchronizationViewOneArrowPerReleasedAwait() throws Exception {
        assertEquals(summary.processes.size(), ((Number) counts().get("lanes")).intValue());
        assertTrue(summary.arrows.size() > 0, "MatMul's awaits were released by advances of other members");
        assertEquals(summary.arrows.size(), drawnArrows("sync"));
        assertTrue(drawnArrows("message") > 0, "message arrows drawn");
        browser.screenshot("space-time");
        browser.view("space-time", "#spacetime");
        browser.view("overview", "#overview");
        browser.view("utilization", "#util");
        browser.view("legend-filters-search", "aside");
    }

    @Test
    void perProcessBars_showThePercentagesMonitorSummaryComputes() throws Exception {
        List<WebElement> rows = browser.driver.findElements(By.cssSelector("#perProcess .pp"));
        assertEquals(summary.times.size(), rows.size());
        int i = 0;
        for (ProcessTimes t : summary.times.values()) {
            String expected = String.format(Locale.ROOT, "%.1f%% / %.1f%% / %.1f%%", t.pct(t.computation()),
                    t.pct(t.overhead()), t.pct(t.blocked));
            assertEquals(t.name, rows.get(i).getAttribute("data-name"));
            assertEquals(expected, rows.get(i).findElement(By.className("pct")).getText());
            i++;
        }
        browser.screenshot("per-process-utilization");
        browser.view("per-process-utilization", "#perProcess");
    }

    @Test
    void eventcountFilter_keepsOnlyThatEventcountsArrows() {
        TreeMap<Long, Integer> perEvent = new TreeMap<>();
        for (SyncArrows.Arrow a : summary.arrows) {
            perEvent.merge(a.event, 1, Integer::sum);
        }
        long ec = perEvent.firstKey();
        long messages = drawnArrows("message");
        WebElement f = browser.driver.findElement(By.id("fEc"));
        f.sendKeys(Long.toString(ec), Keys.TAB);
        browser.await("return window.dsmview.ready && location.hash.includes('ec=" + ec + "')");
        assertEquals(perEvent.get(ec).longValue(), drawnArrows("sync"));
        assertEquals(messages, drawnArrows("message"), "the eventcount filter leaves message arrows alone");
    }

    @Test
    void segmentFilter_keepsOnlyThatSegmentsMessageArrows() throws Exception {
        long seg = 2; // MatMul's C: every member sends its band to member 0
        long expected = messagesOf(seg);
        assertTrue(expected > 0 && expected < drawnArrows("message"));
        long sync = drawnArrows("sync");
        browser.driver.findElement(By.id("fSeg")).sendKeys(Long.toString(seg), Keys.TAB);
        browser.await("return window.dsmview.ready && location.hash.includes('seg=" + seg + "')");
        assertEquals(expected, drawnArrows("message"));
        assertEquals(sync, drawnArrows("sync"), "the segment filter leaves synchronization arrows alone");
        browser.screenshot("segment-filter");
        browser.view("segment-filter", "#spacetime");
    }

    /** Logical messages received whose send is recorded, of context {@code seg}: counted from the file. */
    private static long messagesOf(long seg) throws Exception {
        EventBuffer all = RecordingReader.readAll(rec);
        Set<Long> sends = new HashSet<>();
        for (int i = 0; i < all.size(); i++) {
            if (all.type[i] == EventType.MSG_SEND_BEGIN.code) {
                sends.add(((long) all.proc[i] << 40) ^ all.b[i]);
            }
        }
        long n = 0;
        for (int i = 0; i < all.size(); i++) {
            if (all.type[i] == EventType.MSG_RECEIVE_END.code && all.peer[i] >= 0 && all.a[i] == seg
                    && sends.contains(((long) all.peer[i] << 40) ^ all.b[i])) {
                n++;
            }
        }
        return n;
    }

    @SuppressWarnings("unchecked")
    private double[] range() {
        List<Number> r = (List<Number>) browser.js("return window.dsmview.range()");
        return new double[] {r.get(0).doubleValue(), r.get(1).doubleValue()};
    }

    @Test
    void keyboard_WZoomsIn_SZoomsOut_DPansRight() {
        double[] r0 = range();
        WebElement c = browser.driver.findElement(By.id("spacetime"));
        new Actions(browser.driver).moveToElement(c, 0, 0).perform();
        browser.js("window.dsmview.setCursor(null)");
        c.sendKeys("w");
        double[] r1 = range();
        assertEquals(0.8 * (r0[1] - r0[0]), r1[1] - r1[0], 1e-6 * (r0[1] - r0[0]));
        c.sendKeys("d");
        double[] r2 = range();
        assertEquals(r1[0] + 0.2 * (r1[1] - r1[0]), r2[0], 1e-6 * (r0[1] - r0[0]));
        c.sendKeys("s");
        double[] r3 = range();
        assertEquals(r2[1] - r2[0], 0.8 * (r3[1] - r3[0]), 1e-6 * (r0[1] - r0[0]));
        browser.awaitReady();
        assertTrue(browser.driver.getCurrentUrl().contains("t0=" + Math.round(r3[0])), "the URL keeps the window");
    }

    @Test
    void clickingAnArrow_showsItsEventsFields() throws Exception {
        @SuppressWarnings("unchecked")
        List<Map<String, Object>> arrows = (List<Map<String, Object>>) browser.js("return window.dsmview.arrows()");
        int idx = -1;
        for (int i = 0; i < arrows.size() && idx < 0; i++) {
            if ("sync".equals(arrows.get(i).get("kind"))) {
                idx = i;
            }
        }
        assertTrue(idx >= 0);
        // zoom to the arrow and show synchronization arrows only, so that nothing else lies under the click
        browser.js("var a = window.dsmview.arrows()[arguments[0]];"
                + "var r = window.dsmview.range(); var c = document.getElementById('spacetime');"
                + "var pw = c.clientWidth - 100; var f = (a.x1 + a.x2) / 2 - 90;"
                + "var t = r[0] + f / pw * (r[1] - r[0]); var w = (r[1] - r[0]) / 50;"
                + "window.location.hash = 'input=0&arrows=sync&t0=' + Math.round(t - w) + '&t1=' + Math.round(t + w);"
                + "location.reload();", idx);
        browser.awaitReady();
        assertTrue(drawnArrows("sync") >= 1);
        assertEquals(0, drawnArrows("message"));
        clickArrowUntilDetailsShow();
        String text = browser.driver.findElement(By.id("details")).getText();
        assertTrue(text.contains("sync"), text);
        assertTrue(text.contains("eventcount"), text);
        assertTrue(text.contains("from.type\tAdvance") || text.contains("from.type Advance"), text);
        assertTrue(text.contains("to.type\tAwait") || text.contains("to.type Await"), text);
        assertTrue(text.contains("to.awaited"), text);
        browser.screenshot("arrow-details");
        browser.view("details", "#details");
    }

    /**
     * Clicks drawn arrow 0 once the picture has settled (the same point in two reads a quarter second apart: a
     * window still loading after the reload redraws and moves the arrows), and again, at its point then, if no
     * details came within ten seconds: a click on a frame replaced between the read and the click misses.
     */
    private void clickArrowUntilDetailsShow() throws InterruptedException {
        WebElement c = browser.driver.findElement(By.id("spacetime"));
        for (int attempt = 0; ; attempt++) {
            Map<?, ?> p = settledArrowPoint();
            int w = c.getSize().getWidth(), h = c.getSize().getHeight();
            new Actions(browser.driver).moveToElement(c,
                    (int) Math.round(((Number) p.get("x")).doubleValue() - w / 2.0),
                    (int) Math.round(((Number) p.get("y")).doubleValue() - h / 2.0)).click().perform();
            try {
                new WebDriverWait(browser.driver, Duration.ofSeconds(10)).until(d -> Boolean.TRUE.equals(browser.js(
                        "return document.getElementById('details').dataset.kind !== undefined")));
                return;
            } catch (TimeoutException e) {
                if (attempt == 2) {
                    throw e;
                }
            }
        }
    }

    private Map<?, ?> settledArrowPoint() throws InterruptedException {
        Map<?, ?> last = null;
        for (int i = 0; i < 120; i++) {
            Map<?, ?> p = (Map<?, ?>) browser.js("return window.dsmview.arrowPoint(0)");
            if (p != null && p.equals(last)) {
                return p;
            }
            last = p;
            Thread.sleep(250);
        }
        throw new AssertionError("arrow 0 did not settle: " + last);
    }

    @Test
    void utilizationView_countsTheProcessesInEachStateAtAChosenTime() {
        // a time inside the longest blocked await: computed from the recording's events and offsets
        EventBuffer all;
        try {
            all = RecordingReader.readAll(rec);
        } catch (Exception e) {
            throw new AssertionError(e);
        }
        long origin = source.timeline().origin;
        long best = -1, bestLen = 0;
        for (int i = 0; i < all.size(); i++) {
            if (all.type[i] == EventType.AWAIT.code && all.e[i] > bestLen) {
                bestLen = all.e[i];
                best = all.time[i] - summary.offsets.getOrDefault(all.proc[i], 0L) + all.d[i] - all.e[i] / 2;
            }
        }
        long t = best - origin;
        int[] expected = new int[3];
        for (ProcessTimes pt : summary.times.values()) {
            if (pt.start - origin > t || pt.end - origin < t) {
                continue;
            }
            int state = 0;
            for (int i = 0; i < all.size(); i++) {
                EventType ty = EventType.of(all.type[i]);
                if (all.proc[i] != pt.proc || ty == null || !"dur".equals(ty.fields[3])) {
                    continue;
                }
                long s = all.time[i] - summary.offsets.getOrDefault(pt.proc, 0L) - origin;
                long blocked = "blocked".equals(ty.fields[4]) ? all.e[i] : 0;
                if (t >= s && t < s + all.d[i] - blocked) {
                    state = 1;
                } else if (t >= s + all.d[i] - blocked && t < s + all.d[i]) {
                    state = 2;
                }
            }
            expected[state]++;
        }
        // zoom around t so that every lane is drawn interval by interval
        browser.js("window.location.hash = 'input=0&t0=" + (t - 50_000) + "&t1=" + (t + 50_000) + "'; location.reload();");
        browser.awaitReady();
        Map<?, ?> u = (Map<?, ?>) browser.js("return window.dsmview.utilAt(arguments[0])", t);
        assertEquals(expected[0], ((Number) u.get("computation")).intValue(), u.toString());
        assertEquals(expected[1], ((Number) u.get("overhead")).intValue(), u.toString());
        assertEquals(expected[2], ((Number) u.get("blocked")).intValue(), u.toString());
        assertTrue(expected[2] >= 1);
    }

    @Test
    @SuppressWarnings("unchecked")
    void messageQueues_countTheMessagesSentToEachProcessAndNotYetReceived() throws Exception {
        EventBuffer all = RecordingReader.readAll(rec);
        long origin = source.timeline().origin;
        java.util.Map<Long, Long> sends = new java.util.HashMap<>();
        for (int i = 0; i < all.size(); i++) {
            if (all.type[i] == EventType.MSG_SEND_BEGIN.code) {
                sends.put(((long) all.proc[i] << 40) ^ all.b[i],
                        all.time[i] - summary.offsets.getOrDefault(all.proc[i], 0L) - origin);
            }
        }
        List<long[]> flights = new java.util.ArrayList<>(); // receiver, sent, received (relative, aligned)
        for (int i = 0; i < all.size(); i++) {
            if (all.type[i] == EventType.MSG_RECEIVE_END.code && all.peer[i] >= 0) {
                Long sent = sends.get(((long) all.peer[i] << 40) ^ all.b[i]);
                if (sent != null) {
                    flights.add(new long[] {all.proc[i], sent,
                        all.time[i] - summary.offsets.getOrDefault(all.proc[i], 0L) - origin});
                }
            }
        }
        long[] longest = flights.stream().max(java.util.Comparator.comparingLong(f -> f[2] - f[1])).orElseThrow();
        long mid = (longest[1] + longest[2]) / 2;
        browser.js("window.location.hash = 'input=0&t0=" + (mid - 1_000_000) + "&t1=" + (mid + 1_000_000) + "';"
                + " location.reload();");
        browser.awaitReady();
        Map<String, Object> d = (Map<String, Object>) browser.js("return window.dsmview.data()");
        long t0 = ((Number) d.get("t0")).longValue(), t1 = ((Number) d.get("t1")).longValue();
        int bins = ((Number) d.get("bins")).intValue();
        int k = bins / 2;
        long x = t0 + (long) Math.ceil((k + 1) * ((double) (t1 - t0) / bins)) - 1;
        List<List<Number>> queues = (List<List<Number>>) d.get("queues");
        List<Integer> procs = new java.util.ArrayList<>(summary.processes.keySet());
        int inFlight = 0;
        for (int l = 0; l < procs.size(); l++) {
            long expected = 0;
            for (long[] f : flights) {
                if (f[0] == procs.get(l) && f[1] <= x && f[2] > x) {
                    expected++;
                }
            }
            assertEquals(expected, queues.get(l).get(k).longValue(), "queue of " + summary.processes.get(procs.get(l)));
            inFlight += (int) expected;
        }
        assertTrue(inFlight >= 1, "the longest message is in flight in the middle of its flight");
        browser.screenshot("message-queues");
        browser.view("message-queues", "#queues");
    }

    @Test
    void hostsGraph_showsEveryMember_andLinksCarryingData() throws Exception {
        @SuppressWarnings("unchecked")
        List<Map<String, Object>> hosts = (List<Map<String, Object>>) browser.js("return window.dsmview.hosts()");
        assertEquals(summary.processes.size(), hosts.size());
        int i = 0;
        for (String name : summary.processes.values()) {
            assertEquals(name, hosts.get(i++).get("name"));
        }
        assertTrue(((Number) counts().get("links")).intValue() >= 2, "member 0 exchanged data with both others");
        browser.screenshot("hosts");
        browser.view("hosts", "#hosts");
    }

    @Test
    void search_findsEveryAdvance_nextAndPrevious() {
        WebElement q = browser.driver.findElement(By.id("q"));
        q.sendKeys("Advance", Keys.ENTER);
        browser.await("return document.getElementById('searchInfo').textContent.includes('matches')");
        String info = browser.driver.findElement(By.id("searchInfo")).getText();
        assertTrue(info.startsWith(summary.counts.get("Advance") + " matches"), info);
        String first = browser.driver.findElement(By.id("details")).getText();
        assertTrue(first.contains("Advance"), first);
        browser.driver.findElement(By.id("next")).click();
        browser.await("return window.dsmview.ready");
        browser.driver.findElement(By.id("prev")).click();
        browser.await("return window.dsmview.ready");
        assertTrue(browser.driver.findElement(By.id("details")).getText().contains("Advance"));
    }

    @Test
    void helpOverlay_listsTheKeys_onQuestionMark() throws Exception {
        WebElement help = browser.driver.findElement(By.id("help"));
        assertFalse(help.isDisplayed());
        browser.driver.findElement(By.id("spacetime")).sendKeys("?");
        assertTrue(help.isDisplayed());
        for (String key : new String[] {"W / S", "A / D", "N / Shift+N", "Esc"}) {
            assertTrue(help.getText().contains(key), key);
        }
        browser.screenshot("help");
        browser.view("help", "#help .box");
        browser.driver.findElement(By.id("spacetime")).sendKeys(Keys.ESCAPE);
        assertFalse(help.isDisplayed());
    }

    @Test
    void theUrlKeepsTheView_windowAndFilters() {
        long ec = summary.arrows.get(0).event;
        String url = "http://127.0.0.1:" + server.port() + "/#input=0&t0=1000&t1=5000000&ec=" + ec;
        browser.driver.get("about:blank");
        browser.driver.get(url);
        browser.awaitReady();
        double[] r = range();
        assertEquals(1000, r[0], 1e-9);
        assertEquals(5_000_000, r[1], 1e-9);
        assertEquals(Long.toString(ec), browser.driver.findElement(By.id("fEc")).getAttribute("value"));
    }

    @Test
    void transportSummary_ofTheWholeRunListsEveryPairMonitorSummaryLists() throws Exception {
        List<WebElement> rows = browser.driver.findElements(By.cssSelector("#transportRun tr"));
        long pairs = summary.pairs.values().stream()
                .filter(s -> s.dataSent + s.retrans + s.dataRecv + s.ackSent + s.nackSent > 0).count();
        assertEquals(pairs + 1, rows.size(), "a header and one row per pair");
        assertTrue(browser.driver.findElements(By.cssSelector("#transportWindow tr")).size() > 1);
        browser.view("transport-summary", "#transportWindow");
    }

    @Test
    void aCorruptRecording_opensWithWhatCouldBeReadAndABanner() throws Exception {
        Path bad = dir.resolve("bad.dsmrec");
        byte[] b = Files.readAllBytes(rec);
        byte[] cut = java.util.Arrays.copyOf(b, b.length * 2 / 3);
        cut[cut.length - 100] ^= 0x55;
        Files.write(bad, cut);
        try (ViewServer s2 = new ViewServer(List.of(MonitorSource.open(bad)), "127.0.0.1", 0, null)) {
            browser.driver.get("http://127.0.0.1:" + s2.port() + "/");
            browser.awaitReady();
            WebElement banner = browser.driver.findElement(By.id("banner"));
            assertTrue(banner.isDisplayed());
            assertTrue(banner.getText().contains("damaged"), banner.getText());
            assertTrue(((Number) browser.js("return window.dsmview.events()")).longValue() > 0);
            browser.screenshot("damaged-recording");
            browser.view("damaged-banner", "#banner");
        }
    }
}
