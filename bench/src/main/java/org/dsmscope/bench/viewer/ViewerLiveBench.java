package org.dsmscope.bench.viewer;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.dsmscope.monitor.Monitor;
import org.dsmscope.monitor.Router;
import org.dsmscope.monitor.event.EventType;
import org.dsmscope.monitor.event.Level;
import org.dsmscope.monitor.route.LiveServer;
import org.dsmscope.monitor.route.RouteServer;
import org.dsmscope.monitor.route.SocketSink;
import org.dsmscope.viewer.model.LiveMonitorSource;
import org.dsmscope.viewer.server.ViewServer;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * The live view's latency (issue 24: an event on screen under 500 ms after the member emitted it, at 50,000 events
 * per second): four members' monitors emit a steady stream (calls, messages, fragments) at a given total rate
 * through the monitor's real route (router with its 200 ms flush timer, as {@code dsm run}'s members, the route
 * server and the live server of {@code dsm run --live}); the viewer subscribes with {@code LiveMonitorSource} and
 * the page follows the newest events in headless Chromium. At every animation frame that shows a new window, the page
 * script takes the age of the newest event drawn: the wall clock at that frame minus the event's emission time
 * (origin + the window's end, both epoch ns of the members' clock on this machine), and the age that the previous
 * picture's newest event had reached when the new picture replaced it (the oldest the screen got). Run by hand:
 * {@code java -cp bench/target/benchmarks.jar org.dsmscope.bench.viewer.ViewerLiveBench [events/s] [seconds] [mode]}
 * where mode is {@code push} (default: the page's push channel, members flushing every
 * {@link Router#LIVE_FLUSH_MS} while the viewer watches), {@code poll} (the page without WebSocket, so it polls
 * every 250 ms; members as in push) or {@code baseline} (polling, and members keeping their 200 ms flush: the
 * live path without this design). Mode {@code route} measures the members' side alone: the events per second
 * one emitting thread sustains through router, route server and live server to a reading viewer, with the live
 * flush and with the 200 ms flush.
 */
public final class ViewerLiveBench {
    private ViewerLiveBench() {
    }

    /**
     * Ages (ms) of the newest drawn event, sampled at each frame that draws a new window, and the age the previous
     * picture's newest event had reached when it was replaced (the oldest the screen got); warm-up samples left out.
     */
    static final String SAMPLE = ""
            + "const done = arguments[arguments.length - 1]; const ms = arguments[0];"
            + "const ages = [], stale = []; let lastEnd = -1; const t0 = performance.now();"
            + "performance.setResourceTimingBufferSize(100000); performance.clearResourceTimings();"
            + "const med = (path) => { const d = performance.getEntriesByType('resource')"
            + "  .filter((e) => e.name.includes(path)).map((e) => e.duration).sort((a, b) => a - b);"
            + "  return d.length ? [d[d.length >> 1], d[Math.min(d.length - 1, Math.ceil(d.length * 0.95) - 1)],"
            + "    d.length] : [0, 0, 0]; };"
            + "(function tick() {"
            + "  const d = window.dsmview.data(), m = window.dsmview.meta();"
            + "  const now = performance.timeOrigin + performance.now();"
            + "  if (d && m && d.end !== lastEnd) {"
            + "    if (lastEnd >= 0) stale.push(now - (m.origin + lastEnd) / 1e6);"
            + "    lastEnd = d.end; ages.push(now - (m.origin + d.end) / 1e6); }"
            + "  if (performance.now() - t0 < ms) requestAnimationFrame(tick);"
            + "  else { const p = window.dsmview.push || {};"
            + "    done({ages: ages, stale: stale, events: window.dsmview.events(), push: p.state,"
            + "    updates: p.updates, applied: p.applied, missed: p.missed,"
            + "    polls: window.dsmview.internal.S.polls || 0,"
            + "    window: med('/api/window'), tables: med('/api/tables'), meta: med('/api/meta'),"
            + "    heap: performance.memory ? performance.memory.usedJSHeapSize : -1}); }"
            + "})();";

    /** Runs the benchmark: args [events per second] [seconds]. */
    public static void main(String[] args) throws Exception {
        int rate = args.length > 0 ? Integer.parseInt(args[0]) : 50_000;
        int seconds = args.length > 1 ? Integer.parseInt(args[1]) : 20;
        String mode = args.length > 2 ? args[2] : "push";
        if (!List.of("push", "poll", "baseline", "route").contains(mode)) {
            throw new IllegalArgumentException("mode: push, poll, baseline or route, not " + mode);
        }
        if (mode.equals("route")) {
            route(seconds);
            return;
        }
        Path profile = Files.createTempDirectory("viewer-live-bench");
        AtomicBoolean stop = new AtomicBoolean();
        AtomicLong emitted = new AtomicLong();
        long started = System.nanoTime();
        try (RouteServer route = new RouteServer(); LiveServer live = new LiveServer(route, 0, Level.ALL,
                LiveServer.DEFAULT_QUEUE); Router r = new Router()) {
            LiveMonitorSource src = LiveMonitorSource.connect("127.0.0.1", live.port(), 10_000);
            try (ViewServer server = new ViewServer(List.of(src), "127.0.0.1", 0, null);
                    Router control = new Router();
                    SocketSink sink = new SocketSink(route.port(), mode.equals("baseline") ? control : r)) {
                while (route.memberMask() != Level.ALL) {
                    Thread.sleep(10);
                }
                r.addSink(sink);
                while (r.enabledMask() != Level.ALL) {
                    Thread.sleep(10);
                }
                Monitor[] m = new Monitor[4];
                for (int p = 0; p < m.length; p++) {
                    m[p] = r.monitor(p, "m" + p);
                    m[p].emit(EventType.PROC_START, -1, 0, 0, 0, 0, 0);
                }
                Thread feeder = new Thread(() -> feed(m, rate, stop, emitted), "feeder");
                feeder.start();
                while (src.timeline().events() < 1000) {
                    Thread.sleep(10);
                }
                ChromeDriver d = ViewerBench.browser(profile);
                try {
                    JavascriptExecutor js = d;
                    if (!mode.equals("push")) { // the page as a browser without WebSocket sees it: polling
                        d.executeCdpCommand("Page.addScriptToEvaluateOnNewDocument",
                                Map.of("source", "delete window.WebSocket;"));
                    }
                    d.get("http://127.0.0.1:" + server.port() + "/");
                    new WebDriverWait(d, Duration.ofSeconds(60)).until(x -> js.executeScript(
                            "return window.dsmview && window.dsmview.data() !== null"));
                    js.executeAsyncScript(SAMPLE, 3_000); // warm-up
                    var os = (com.sun.management.OperatingSystemMXBean) java.lang.management.ManagementFactory
                            .getOperatingSystemMXBean();
                    long cpu0 = os.getProcessCpuTime(), wall0 = System.nanoTime();
                    double[] renderer0 = ViewerBench.rendererCpu(profile);
                    @SuppressWarnings("unchecked")
                    Map<String, Object> res = (Map<String, Object>) js.executeAsyncScript(SAMPLE,
                            Math.max(1, seconds - 3) * 1000);
                    double wallMs = (System.nanoTime() - wall0) / 1e6;
                    double jvmCores = (os.getProcessCpuTime() - cpu0) / 1e6 / wallMs;
                    double rendererCores = (ViewerBench.rendererCpu(profile)[1] - renderer0[1]) / wallMs;
                    List<Double> ages = numbers(res.get("ages")), stale = numbers(res.get("stale"));
                    stop.set(true);
                    feeder.join();
                    ages.sort(null);
                    stale.sort(null);
                    System.out.printf(Locale.ROOT, "live: %d events emitted at %d/s over %.0f s (browser start"
                            + " included); timeline %d events; %d dropped by the live server; page saw %s%n",
                            emitted.get(), rate, (System.nanoTime() - started) / 1e9,
                            src.timeline().events(), live.dropped(), res.get("events"));
                    System.out.printf(Locale.ROOT, "live: age of the newest event on screen at each new picture:"
                            + " median %.0f ms, p95 %.0f ms, max %.0f ms (%d pictures)%n", at(ages, 0.5),
                            at(ages, 0.95), at(ages, 1), ages.size());
                    System.out.printf(Locale.ROOT, "live: age of the newest event on screen when the next picture"
                            + " replaced it: median %.0f ms, p95 %.0f ms, max %.0f ms%n", at(stale, 0.5),
                            at(stale, 0.95), at(stale, 1));
                    System.out.printf(Locale.ROOT, "live: mode %s, members' flush %d ms; page: push %s, %s updates"
                            + " received, %s applied, %s missed, %s polls%n", mode, r.flushInterval(),
                            res.get("push"), res.get("updates"), res.get("applied"), res.get("missed"),
                            res.get("polls"));
                    System.out.printf(Locale.ROOT, "live: requests as the page saw them (median ms, p95 ms, count):"
                            + " window %s, tables %s, meta %s%n", res.get("window"), res.get("tables"),
                            res.get("meta"));
                    System.out.printf(Locale.ROOT, "live: CPU while sampled: this JVM (members, route, live server,"
                            + " viewer) %.2f cores, the page's renderer %.2f cores%n", jvmCores, rendererCores);
                    System.out.printf(Locale.ROOT, "live: page JavaScript heap %.1f MB, renderer PSS %.1f MB%n",
                            ((Number) res.get("heap")).doubleValue() / 1e6, ViewerBench.rendererRss(profile) / 1e6);
                } finally {
                    stop.set(true);
                    d.quit();
                }
            }
        } finally {
            try (var s = Files.walk(profile)) {
                s.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
    }

    /**
     * The members' side: one thread emits as fast as it can into a monitor whose router sends to the route server,
     * and a viewer of the live server reads everything; events per second over {@code seconds}, first with the
     * live flush ({@link Router#LIVE_FLUSH_MS}: a viewer asks for it), then with the router's own 200 ms (the
     * viewer's flush request is not applied). Events the live server dropped for the viewer are reported.
     */
    private static void route(int seconds) throws Exception {
        for (String flush : new String[] {"live", "200 ms", "live", "200 ms"}) {
            try (RouteServer route = new RouteServer(); LiveServer live = new LiveServer(route, 0, Level.ALL,
                    LiveServer.DEFAULT_QUEUE); Router r = new Router(); Router control = new Router();
                    org.dsmscope.monitor.route.LiveClient viewer = org.dsmscope.monitor.route.LiveClient.connect(
                            "127.0.0.1", live.port(), 10_000);
                    SocketSink sink = new SocketSink(route.port(), flush.equals("live") ? r : control)) {
                Thread reader = new Thread(() -> {
                    try {
                        while (viewer.next() != null) {
                            // read and parse every line, as a viewer does
                        }
                    } catch (Exception e) {
                        // the connection closes at the end
                    }
                }, "viewer");
                reader.setDaemon(true);
                reader.start();
                while (route.memberMask() != Level.ALL) {
                    Thread.sleep(10);
                }
                r.addSink(sink);
                Monitor m = r.monitor(0, "m0");
                long t0 = System.nanoTime(), end = t0 + seconds * 1_000_000_000L, n = 0;
                while (System.nanoTime() < end) {
                    for (int i = 0; i < 1000; i++) {
                        m.emit(EventType.FRAG_SEND, 1, n + i, -1, 2, 600, 0);
                    }
                    n += 1000;
                }
                double s = (System.nanoTime() - t0) / 1e9;
                // then a steady 50,000 events/s over four monitors: the CPU time of this JVM (members' side, route,
                // live server and the reading viewer together) per second
                Monitor[] ms = new Monitor[4];
                for (int p = 0; p < ms.length; p++) {
                    ms[p] = r.monitor(p + 1, "m" + (p + 1));
                }
                var os = (com.sun.management.OperatingSystemMXBean) java.lang.management.ManagementFactory
                        .getOperatingSystemMXBean();
                AtomicBoolean stop = new AtomicBoolean();
                long cpu0 = os.getProcessCpuTime(), w0 = System.nanoTime();
                Thread feeder = new Thread(() -> feed(ms, 50_000, stop, new AtomicLong()), "feeder");
                feeder.start();
                Thread.sleep(seconds * 1000L);
                stop.set(true);
                feeder.join();
                double cpu = (os.getProcessCpuTime() - cpu0) / (double) (System.nanoTime() - w0);
                System.out.printf(Locale.ROOT, "route: flush %s (router at %d ms): %.0f events/s emitted by one thread;"
                        + " at 50,000 events/s %.1f %% of a core; %d dropped for the viewer%n", flush,
                        r.flushInterval(), n / s, 100 * cpu, live.dropped());
            }
        }
    }

    private static List<Double> numbers(Object list) {
        List<Double> out = new ArrayList<>();
        for (Object o : (List<?>) list) {
            out.add(((Number) o).doubleValue());
        }
        return out;
    }

    private static double at(List<Double> sorted, double p) {
        return sorted.isEmpty() ? Double.NaN
                : sorted.get(Math.min(sorted.size() - 1, Math.max(0, (int) Math.ceil(p * sorted.size()) - 1)));
    }

    /** Emits {@code rate} events per second in all, each millisecond's share at once, round-robin over members. */
    private static void feed(Monitor[] m, int rate, AtomicBoolean stop, AtomicLong emitted) {
        long start = System.nanoTime();
        long n = 0;
        long seq = 0;
        while (!stop.get()) {
            long due = (System.nanoTime() - start) * rate / 1_000_000_000L;
            for (; n < due; n++) {
                int p = (int) (n % m.length), q = (p + 1) % m.length;
                switch ((int) (n / m.length % 4)) {
                    case 0:
                        m[p].emit(EventType.PUT_UPDATES, -1, 0, n, 512, 20_000, 0);
                        break;
                    case 1:
                        m[p].emit(EventType.MSG_SEND_BEGIN, q, 0, ++seq, EventType.DATA, 512, 0);
                        break;
                    case 2:
                        m[p].emit(EventType.FRAG_SEND, q, n, -1, 2, 600, 0);
                        break;
                    default:
                        m[p].emit(EventType.FRAG_RECV, q, n, -1, 2, 600, 0);
                        break;
                }
            }
            emitted.set(n);
            try {
                Thread.sleep(1);
            } catch (InterruptedException e) {
                return;
            }
        }
    }
}
