package org.dsmscope.viewer.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.dsmscope.viewer.model.MonitorSource;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.interactions.Actions;

/**
 * How the page draws (seed 002 §4.3's space-time view, viewer/README.md "Drawing"), in headless Chromium on a
 * recording the DSM runtime makes here: a pan shows the last picture shifted until the server answers, then the
 * complete picture of the new window; the cursor moves on its own layer without drawing the bars again.
 */
class DrawingViewTest {
    @TempDir
    static Path dir;
    static ViewServer server;
    static Browser browser;

    @BeforeAll
    static void start() throws Exception {
        Path rec = Fixtures.matmul(dir.resolve("matmul.dsmrec"), 3, 24, 0.05);
        server = new ViewServer(List.of(MonitorSource.open(rec)), "127.0.0.1", 0, null);
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
        browser.driver.get("about:blank");
        browser.driver.get("http://127.0.0.1:" + server.port() + "/");
        browser.awaitReady();
    }

    @SuppressWarnings("unchecked")
    private Map<String, Number> paints() {
        return (Map<String, Number>) browser.js("return window.dsmview.paints()");
    }

    @SuppressWarnings("unchecked")
    private double[] range() {
        List<Number> r = (List<Number>) browser.js("return window.dsmview.range()");
        return new double[] {r.get(0).doubleValue(), r.get(1).doubleValue()};
    }

    /** The server's answer for a window, asked as the page asks it. */
    private static JsonNode window(long t0, long t1, int bins) throws Exception {
        HttpResponse<String> r = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(
                "http://127.0.0.1:" + server.port() + "/api/window?input=0&mtype=data,request,reply&t0=" + t0
                + "&t1=" + t1 + "&bins=" + bins)).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(200, r.statusCode(), r.body());
        return new ObjectMapper().readTree(r.body());
    }

    @Test
    @SuppressWarnings("unchecked")
    void panningWithKeys_showsTheLastPictureShifted_thenTheCompletePictureOfTheNewWindow() throws Exception {
        // a window of a quarter of the run, in its middle, so that the pan brings in new intervals and arrows
        double[] whole = range();
        double w = (whole[1] - whole[0]) / 4;
        browser.js("location.hash = 'input=0&t0=" + Math.round(whole[0] + w) + "&t1=" + Math.round(whole[0] + 2 * w)
                + "'; location.reload();");
        browser.awaitReady();
        double[] r0 = range();
        long pictures = paints().get("spaceTime").longValue();
        long shifted = paints().get("shifted").longValue();
        // three D presses in one task, then the next animation frame: the frame the keys asked for has run by then,
        // before the server's answer for the new window (asked 60 ms after the last key) can have come
        Map<String, Object> during = (Map<String, Object>) browser.driver.executeAsyncScript(
                "const done = arguments[arguments.length - 1]; const c = document.getElementById('spacetime');"
                + "for (let i = 0; i < 3; i++) c.dispatchEvent(new KeyboardEvent('keydown', {key: 'd', bubbles: true}));"
                + "requestAnimationFrame(() => { const d = window.dsmview.data(), r = window.dsmview.range();"
                + "  done({paints: window.dsmview.paints(), answered: Math.abs(d.t0 - r[0]) < 1 && Math.abs(d.t1 - r[1]) < 1}); });");
        Map<String, Number> p1 = (Map<String, Number>) during.get("paints");
        if (!Boolean.TRUE.equals(during.get("answered"))) {
            assertTrue(p1.get("shifted").longValue() > shifted, "the frame before the answer shows the picture shifted");
            assertEquals(pictures, p1.get("spaceTime").longValue(), "and draws no bar from the old window's data");
        }
        browser.awaitReady();
        double[] r1 = range();
        assertEquals(r0[0] + 0.6 * (r0[1] - r0[0]), r1[0], 1e-6 * (r0[1] - r0[0]), "three pans of a fifth");
        assertEquals(r0[1] - r0[0], r1[1] - r1[0], 1e-6 * (r0[1] - r0[0]));
        // complete again: the picture is drawn from the server's answer for exactly the window shown
        Map<String, Object> data = (Map<String, Object>) browser.js("return window.dsmview.data()");
        long t0 = ((Number) data.get("t0")).longValue(), t1 = ((Number) data.get("t1")).longValue();
        assertEquals(Math.floor(r1[0]), t0, 0.0);
        assertEquals(Math.ceil(r1[1]), t1, 0.0);
        assertTrue(paints().get("spaceTime").longValue() > pictures, "the new window's picture is drawn");
        JsonNode answer = window(t0, t1, ((Number) data.get("bins")).intValue());
        Map<String, Object> counts = (Map<String, Object>) browser.js("return window.dsmview.counts()");
        int step = "exact".equals(answer.get("arrows").get("mode").asText()) ? 6 : 7;
        assertTrue(answer.get("arrows").get("list").size() > 0, "the window holds arrows");
        assertEquals(answer.get("arrows").get("list").size() / step, ((Number) counts.get("arrowsDrawn")).intValue(),
                "one drawn arrow per arrow of the server's answer");
        long lanes = 0;
        for (JsonNode l : answer.get("lanes")) {
            lanes += "empty".equals(l.get("mode").asText()) ? 0 : 1;
        }
        assertEquals(lanes, ((Number) counts.get("lanes")).longValue(), "one bar per lane the answer has");
        assertEquals(answer.get("marks").get("count").asLong(), ((Number) counts.get("marks")).longValue());
        browser.screenshot("after-pan");
        browser.view("after-pan", "#spacetime");
    }

    @Test
    void movingTheCursor_drawsTheCursorLayer_notTheBars() throws Exception {
        WebElement c = browser.driver.findElement(By.id("spacetime"));
        long pictures = paints().get("spaceTime").longValue();
        long shifted = paints().get("shifted").longValue();
        long cursor = paints().get("cursor").longValue();
        int w = c.getSize().getWidth();
        // Selenium moves the pointer in steps: wait for the line where the move ends
        new Actions(browser.driver).moveToElement(c, -w / 4, 0).perform();
        browser.await("return " + lineAt(-w / 4));
        String first = browser.driver.findElement(By.id("cursor")).getText();
        assertNotEquals("-", first, "the header shows the cursor's time");
        assertTrue(paints().get("cursor").longValue() > cursor, "the cursor layer was drawn");
        new Actions(browser.driver).moveToElement(c, w / 4, 0).perform();
        browser.await("return " + lineAt(w / 4));
        assertNotEquals(first, browser.driver.findElement(By.id("cursor")).getText(), "the header follows the cursor");
        assertTrue(!Boolean.TRUE.equals(browser.js("return " + lineAt(-w / 4))), "the line is gone from where it was");
        assertEquals(pictures, paints().get("spaceTime").longValue(), "the bars were not drawn again");
        assertEquals(shifted, paints().get("shifted").longValue());
        browser.screenshot("cursor-layer");
        browser.view("cursor-layer", "#spacetime");
    }

    /**
     * A script expression: whether the cursor layer has an opaque pixel in the column {@code dx} CSS pixels right of
     * the space-time view's centre (where Selenium puts the mouse), in 8 rows at the height of the first bar (a dash
     * and a gap).
     */
    private static String lineAt(int dx) {
        return "(() => { const o = document.getElementById('spacetimeCursor'), dpr = window.devicePixelRatio || 1;"
                + " const cx = Math.round((o.clientWidth / 2 + " + dx + ") * dpr);"
                + " const px = o.getContext('2d').getImageData(Math.max(0, cx - 2), Math.round(40 * dpr), 5,"
                + " Math.round(8 * dpr)).data;"
                + " for (let i = 3; i < px.length; i += 4) if (px[i] > 0) return true; return false; })()";
    }
}
