package org.dsmscope.viewer.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.dsmscope.monitor.Monitor;
import org.dsmscope.monitor.Router;
import org.dsmscope.monitor.event.EventType;
import org.dsmscope.monitor.event.Level;
import org.dsmscope.monitor.route.LiveServer;
import org.dsmscope.monitor.route.RouteServer;
import org.dsmscope.monitor.route.SocketSink;
import org.dsmscope.viewer.model.LiveMonitorSource;
import org.junit.jupiter.api.Test;

/**
 * The page on a live stream ("dsmscope-live 1" from the monitor's own route and live servers): events emitted by
 * members while the page is open appear in it through the push channel (no poll while it is open), and the page's
 * level switch reaches the members; a page whose push channel cannot open polls and says so.
 */
class LiveViewTest {
    private static void waitFor(java.util.function.BooleanSupplier c) throws InterruptedException {
        long deadline = System.currentTimeMillis() + 30_000;
        while (!c.getAsBoolean() && System.currentTimeMillis() < deadline) {
            Thread.sleep(10);
        }
        assertTrue(c.getAsBoolean(), "condition not reached within 30 s");
    }

    private static long events(Browser b) {
        return ((Number) b.js("return window.dsmview.events()")).longValue();
    }

    @Test
    void eventsEmittedWhileThePageIsOpenAppearInIt() throws Exception {
        try (RouteServer route = new RouteServer(); LiveServer live = new LiveServer(route, 0, Level.ALL, 10_000);
                Router r = new Router(20)) {
            LiveMonitorSource src = LiveMonitorSource.connect("127.0.0.1", live.port(), 10_000);
            try (ViewServer server = new ViewServer(List.of(src), "127.0.0.1", 0, null);
                    SocketSink s = new SocketSink(route.port(), r); Browser b = Browser.start()) {
                waitFor(() -> route.memberMask() == Level.ALL);
                r.addSink(s);
                waitFor(() -> r.enabledMask() == Level.ALL);
                Monitor m0 = r.monitor(0, "m0");
                Monitor m1 = r.monitor(1, "m1");
                m0.emit(EventType.PROC_START, -1, 0, 0, 0, 0, 0);
                m1.emit(EventType.PROC_START, -1, 0, 0, 0, 0, 0);
                m0.flush();
                m1.flush();
                waitFor(() -> src.timeline().events() == 2);
                b.driver.get("http://127.0.0.1:" + server.port() + "/");
                b.awaitReady();
                assertEquals("live", b.js("return window.dsmview.meta().source"));
                assertEquals(2, events(b));
                for (int k = 1; k <= 20; k++) {
                    long t = m1.now();
                    m1.emitAt(t, EventType.AWAIT, -1, 0, k, k, 2_000_000, 1_500_000);
                    m0.emitAt(t + 1_000_000, EventType.ADVANCE, -1, 0, k, 0, 20_000, 0);
                    m0.emit(EventType.MSG_SEND_BEGIN, 1, 0, k, EventType.DATA, 100, 0);
                    m1.emit(EventType.MSG_RECEIVE_END, 0, 0, k, EventType.DATA, 100, 0);
                    m0.flush();
                    m1.flush();
                    Thread.sleep(20);
                }
                b.await("return window.dsmview.events() >= 82 && window.dsmview.ready");
                b.await("return window.dsmview.counts().arrows.message === 20");
                // the new events came through the push channel, and nothing was polled while it was open
                assertEquals("open", b.js("return window.dsmview.push.state"));
                assertTrue(((Number) b.js("return window.dsmview.push.updates")).longValue() > 0, "updates pushed");
                assertTrue(((Number) b.js("return window.dsmview.push.applied")).longValue() > 0, "updates applied");
                assertEquals(b.js("return window.dsmview.push.pollsAtOpen"),
                        b.js("return window.dsmview.internal.S.polls || 0"), "no poll while the channel is open");
                assertTrue(String.valueOf(b.js("return document.getElementById('pushStatus').textContent"))
                        .contains("updates pushed"));
                b.screenshot("live");
                b.view("live", "#spacetime");
                assertTrue(events(b) >= 82, "the page saw the new events");

                for (String level : new String[] {"program", "message"}) {
                    b.driver.findElement(org.openqa.selenium.By.cssSelector("#liveLevels input[value=" + level + "]"))
                            .click();
                }
                waitFor(() -> r.enabledMask() == Level.TRANSPORT.bit());
            }
        }
    }

    @Test
    void aPageWithoutThePushChannel_pollsAndSaysSo() throws Exception {
        try (RouteServer route = new RouteServer(); LiveServer live = new LiveServer(route, 0, Level.ALL, 10_000);
                Router r = new Router(20)) {
            LiveMonitorSource src = LiveMonitorSource.connect("127.0.0.1", live.port(), 10_000);
            try (ViewServer server = new ViewServer(List.of(src), "127.0.0.1", 0, null);
                    SocketSink s = new SocketSink(route.port(), r); Browser b = Browser.start()) {
                waitFor(() -> route.memberMask() == Level.ALL);
                r.addSink(s);
                Monitor m0 = r.monitor(0, "m0");
                m0.emit(EventType.PROC_START, -1, 0, 0, 0, 0, 0);
                m0.flush();
                waitFor(() -> src.timeline().events() == 1);
                // a browser (or a proxy) that cannot open the channel: the page as it then sees the world
                b.driver.executeCdpCommand("Page.addScriptToEvaluateOnNewDocument",
                        java.util.Map.of("source", "delete window.WebSocket;"));
                b.driver.get("http://127.0.0.1:" + server.port() + "/");
                b.awaitReady();
                for (int k = 1; k <= 10; k++) {
                    m0.emit(EventType.ADVANCE, -1, 0, k, 0, 20_000, 0);
                    m0.flush();
                    Thread.sleep(20);
                }
                b.await("return window.dsmview.events() >= 11");
                assertEquals("closed", b.js("return window.dsmview.push.state"));
                assertEquals(0L, ((Number) b.js("return window.dsmview.push.updates")).longValue());
                assertTrue(((Number) b.js("return window.dsmview.internal.S.polls || 0")).longValue() > 0, "polled");
                assertTrue(String.valueOf(b.js("return document.getElementById('pushStatus').textContent"))
                        .contains("polling every 250 ms"));
                b.view("live-polling", "header");
            }
        }
    }
}
