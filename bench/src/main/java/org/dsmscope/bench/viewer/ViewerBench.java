package org.dsmscope.bench.viewer;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import org.dsmscope.monitor.event.EventBuffer;
import org.dsmscope.monitor.event.EventType;
import org.dsmscope.monitor.record.Recorder;
import org.dsmscope.viewer.model.MonitorSource;
import org.dsmscope.viewer.server.ViewServer;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * The viewer on a generated recording of N events (default 1,000,000; issue 24's speed targets): loading it,
 * the server's answer for the whole-run window, the first complete picture in headless Chromium after the page
 * opens (server already started), the page's draw time per frame and the key-to-new-picture latency while zooming
 * and panning with W/S/A/D, and the page's JavaScript heap. Not a JMH benchmark (a browser is in the loop); run
 * by hand: {@code java -cp bench/target/benchmarks.jar org.dsmscope.bench.viewer.ViewerBench [events] [procs]}.
 */
public final class ViewerBench {
    private ViewerBench() {
    }

    /** Writes a recording of about {@code n} events on {@code procs} processes: calls, messages, syncs, packets. */
    static void write(Path file, int n, int procs) throws Exception {
        Random rnd = new Random(1);
        long base = 1_700_000_000_000_000_000L;
        long[] clock = new long[procs];
        Arrays.fill(clock, base);
        long[] adv = new long[4];
        long msgseq = 0;
        try (Recorder r = new Recorder(file)) {
            for (int p = 0; p < procs; p++) {
                r.process(p, "m" + p);
            }
            EventBuffer b = new EventBuffer(16384);
            int written = 0;
            for (int i = 0; written < n; i++) {
                if (b.size() > b.capacity() - 4) {
                    r.accept(b);
                    b.clear();
                }
                int p = i % procs;
                int q = (p + 1 + rnd.nextInt(procs - 1)) % procs;
                clock[p] += 5_000 + rnd.nextInt(50_000);
                long t = clock[p];
                switch (rnd.nextInt(10)) {
                    case 0: case 1: case 2:
                        b.add(t, p, EventType.PUT_UPDATES.code, -1, p % 3, i, 512, 20_000, 0);
                        b.add(t + 5_000, p, EventType.MSG_SEND_BEGIN.code, q, p % 3, ++msgseq, EventType.DATA, 512, 0);
                        b.add(t + 35_000, q, EventType.MSG_RECEIVE_END.code, p, p % 3, msgseq, EventType.DATA, 512, 0);
                        written += 3;
                        break;
                    case 3:
                        b.add(t, p, EventType.ADVANCE.code, -1, p % 4, ++adv[p % 4], 0, 10_000, 0);
                        written++;
                        break;
                    case 4: {
                        int e = q % 4;
                        b.add(t, p, EventType.AWAIT.code, -1, e, Math.max(1, adv[e]), Math.max(1, adv[e]), 200_000,
                                180_000);
                        clock[p] += 200_000;
                        written++;
                        break;
                    }
                    case 5: case 6:
                        b.add(t, p, EventType.FRAG_SEND.code, q, i, -1, 2, 600, 0);
                        b.add(t + 20_000, q, EventType.FRAG_RECV.code, p, i, -1, 2, 600, 0);
                        written += 2;
                        break;
                    case 7:
                        b.add(t, p, EventType.GET_UPDATES.code, -1, q % 3, i, 1, 60_000, 40_000);
                        clock[p] += 60_000;
                        written++;
                        break;
                    default:
                        b.add(t, p, EventType.RETRANS_SEND.code, q, i, -1, 2, 600, 4 + EventType.CAUSE_NACK);
                        b.add(t - 1_000, q, EventType.NACK_SEND.code, p, i, 1, 2, 0, 0);
                        written += 2;
                        break;
                }
            }
            r.accept(b);
        }
    }

    private static double pct(List<Double> v, double p) {
        if (v.isEmpty()) {
            return Double.NaN;
        }
        List<Double> s = new ArrayList<>(v);
        s.sort(null);
        return s.get(Math.min(s.size() - 1, (int) Math.ceil(p * s.size()) - 1));
    }

    private static List<Double> doubles(Object o) {
        List<Double> out = new ArrayList<>();
        for (Object x : (List<?>) o) {
            out.add(((Number) x).doubleValue());
        }
        return out;
    }

    /** Runs the benchmark: args [events] [processes]. */
    public static void main(String[] args) throws Exception {
        int n = args.length > 0 ? Integer.parseInt(args[0]) : 1_000_000;
        int procs = args.length > 1 ? Integer.parseInt(args[1]) : 8;
        Path dir = Files.createTempDirectory("viewer-bench");
        Path rec = dir.resolve("bench.dsmrec");
        long t0 = System.nanoTime();
        write(rec, n, procs);
        long t1 = System.nanoTime();
        MonitorSource src = MonitorSource.open(rec);
        long t2 = System.nanoTime();
        System.out.printf(Locale.ROOT, "recording: %d events, %d processes, %.1f MB, written in %.2f s%n",
                src.timeline().events(), procs, Files.size(rec) / 1e6, (t1 - t0) / 1e9);
        System.out.printf(Locale.ROOT, "load (summary + timeline): %.2f s; %d arrows%n", (t2 - t1) / 1e9,
                src.timeline().arrows());
        Path profile = Files.createTempDirectory("viewer-bench-chromium");
        try (ViewServer server = new ViewServer(List.of(src), "127.0.0.1", 0, null)) {
            HttpClient http = HttpClient.newHttpClient();
            List<Double> answers = new ArrayList<>();
            for (int k = 0; k < 7; k++) {
                long a = System.nanoTime();
                HttpResponse<byte[]> r = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:"
                        + server.port() + "/api/window?t0=0&t1=" + src.timeline().end() + "&bins=600")).build(),
                        HttpResponse.BodyHandlers.ofByteArray());
                answers.add((System.nanoTime() - a) / 1e6);
                if (k == 0) {
                    System.out.printf(Locale.ROOT, "whole-run window answer: %d bytes%n", r.body().length);
                }
            }
            System.out.printf(Locale.ROOT, "whole-run window answer time: median %.1f ms (7 requests)%n",
                    pct(answers, 0.5));
            ChromeDriverService service = new ChromeDriverService.Builder()
                    .usingDriverExecutable(Path.of("/usr/bin/chromedriver").toFile()).usingAnyFreePort().build();
            ChromeOptions o = new ChromeOptions();
            o.setBinary("/usr/bin/chromium");
            o.addArguments("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                    "--disable-background-networking", "--disable-component-update", "--disable-sync",
                    "--no-first-run", "--enable-precise-memory-info", "--window-size=1600,1000",
                    "--user-data-dir=" + profile);
            ChromeDriver d = new ChromeDriver(service, o);
            try {
                JavascriptExecutor js = d;
                d.get("http://127.0.0.1:" + server.port() + "/");
                new WebDriverWait(d, Duration.ofSeconds(120)).until(x -> js.executeScript(
                        "return window.dsmview && window.dsmview.firstPicture()") != null);
                double first = ((Number) js.executeScript("return window.dsmview.firstPicture()")).doubleValue();
                System.out.printf(Locale.ROOT, "first complete picture: %.0f ms after navigation start%n", first);
                d.manage().timeouts().scriptTimeout(Duration.ofSeconds(300));
                @SuppressWarnings("unchecked")
                Map<String, Object> res = (Map<String, Object>) js.executeAsyncScript(
                        "const done = arguments[arguments.length - 1];"
                        + "const keys = ['w','w','w','d','d','a','w','w','s','d','w','w','w','a','s','s','d','w','s','a'];"
                        + "const lat = []; const frames0 = window.dsmview.frameTimes().length;"
                        + "let i = 0;"
                        + "function step() {"
                        + "  if (i >= keys.length * 2) { done({lat: lat, frames: window.dsmview.frameTimes(),"
                        + "    heap: performance.memory ? performance.memory.usedJSHeapSize : -1}); return; }"
                        + "  const before = window.dsmview.loaded(); const t = performance.now();"
                        + "  document.getElementById('spacetime').dispatchEvent(new KeyboardEvent('keydown',"
                        + "    {key: keys[i % keys.length], bubbles: true}));"
                        + "  i++;"
                        + "  (function wait() { if (window.dsmview.loaded() > before && window.dsmview.ready) {"
                        + "      lat.push(performance.now() - t); requestAnimationFrame(step); }"
                        + "    else setTimeout(wait, 2); })();"
                        + "}"
                        + "step();");
                List<Double> lat = doubles(res.get("lat"));
                List<Double> frames = doubles(res.get("frames"));
                System.out.printf(Locale.ROOT, "draw per frame: median %.1f ms, p95 %.1f ms (%d frames)%n",
                        pct(frames, 0.5), pct(frames, 0.95), frames.size());
                System.out.printf(Locale.ROOT, "key to new picture (fetch + draw, 60 ms debounce included): median"
                        + " %.0f ms, p95 %.0f ms (%d keys)%n", pct(lat, 0.5), pct(lat, 0.95), lat.size());
                System.out.printf(Locale.ROOT, "page JavaScript heap: %.1f MB%n",
                        ((Number) res.get("heap")).doubleValue() / 1e6);
            } finally {
                d.quit();
            }
        } finally {
            try (var s = Files.walk(profile)) {
                s.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
            Files.deleteIfExists(rec);
            Files.deleteIfExists(dir);
        }
    }
}
