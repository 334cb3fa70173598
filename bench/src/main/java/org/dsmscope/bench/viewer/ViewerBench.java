package org.dsmscope.bench.viewer;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
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
 * The viewer on a generated recording of N events (default 1,000,000; issue 24's speed targets): loading it, the
 * server's answers (whole run, a zoomed window, their transport tables), then per run a fresh headless Chromium:
 * the first complete picture after the page opens (server already started; the page's
 * {@code dsmview:first-picture} mark), the page's draw time per frame ({@code dsmview:frame} measures) and the
 * intervals between animation frames while a script zooms and pans with W/S/A/D and the wheel, the time from the
 * last input to the picture of its window's data, and the page's memory. Not a JMH benchmark (a browser is in the
 * loop); run by hand: {@code java -cp bench/target/benchmarks.jar org.dsmscope.bench.viewer.ViewerBench [events]
 * [procs] [runs] [first-picture.png]}, or with the URL of a viewer already started ({@code dsmscope view} on a
 * trace set) and [runs] for the page's figures alone; {@code -Dviewer.gpu=true} without {@code --disable-gpu},
 * {@code -Dviewer.profile=true} with the page's JavaScript profile.
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

    /** Headless Chromium with the system's browser and driver (never a downloaded one), in profile {@code dir}. */
    static ChromeDriver browser(Path dir) {
        ChromeDriverService service = new ChromeDriverService.Builder()
                .usingDriverExecutable(Path.of("/usr/bin/chromedriver").toFile()).usingAnyFreePort().build();
        ChromeOptions o = new ChromeOptions();
        o.setBinary("/usr/bin/chromium");
        o.addArguments("--headless=new", "--no-sandbox", "--disable-dev-shm-usage",
                "--disable-background-networking", "--disable-component-update", "--disable-sync",
                "--no-first-run", "--enable-precise-memory-info", "--window-size=1600,1000",
                "--user-data-dir=" + dir);
        if (!GPU) {
            o.addArguments("--disable-gpu"); // canvas rasterization on the renderer's main thread, as the tests
        }
        ChromeDriver d = new ChromeDriver(service, o);
        d.manage().timeouts().scriptTimeout(Duration.ofSeconds(300));
        return d;
    }

    /**
     * Proportional set size (resident memory, shared pages divided among their sharers) of the renderer processes
     * of the browser started with profile {@code dir} (the page's memory: JavaScript heap, canvases, DOM), in bytes;
     * -1 where /proc cannot tell.
     */
    static long rendererRss(Path dir) {
        long sum = 0;
        try (var procs = Files.list(Path.of("/proc"))) {
            for (Path p : (Iterable<Path>) procs::iterator) {
                try {
                    String cmd = new String(Files.readAllBytes(p.resolve("cmdline")), StandardCharsets.UTF_8);
                    if (cmd.contains("--type=renderer") && cmd.contains("--user-data-dir=" + dir)) {
                        for (String l : Files.readAllLines(p.resolve("smaps_rollup"))) {
                            if (l.startsWith("Pss:")) {
                                sum += Long.parseLong(l.replaceAll("[^0-9]", "")) * 1024;
                            }
                        }
                    }
                } catch (Exception e) {
                    // not a process, or one that ended meanwhile
                }
            }
        } catch (Exception e) {
            return -1;
        }
        return sum;
    }

    /**
     * CPU time (ms) of the renderer processes of profile {@code dir}: {0} their main threads (CrRendererMain, the
     * thread whose id is the process id: JavaScript, style, layout, canvas recording), {1} all their threads
     * (rasterization included). From /proc's
     * per-thread utime + stime, so that a figure does not depend on how busy the rest of the machine is.
     */
    static double[] rendererCpu(Path dir) {
        double[] out = new double[2];
        try (var procs = Files.list(Path.of("/proc"))) {
            for (Path p : (Iterable<Path>) procs::iterator) {
                try {
                    String cmd = new String(Files.readAllBytes(p.resolve("cmdline")), StandardCharsets.UTF_8);
                    if (!cmd.contains("--type=renderer") || !cmd.contains("--user-data-dir=" + dir)) {
                        continue;
                    }
                    try (var tasks = Files.list(p.resolve("task"))) {
                        for (Path t : (Iterable<Path>) tasks::iterator) {
                            String st = Files.readString(t.resolve("stat"));
                            String[] f = st.substring(st.lastIndexOf(')') + 2).split(" ");
                            double ms = (Long.parseLong(f[11]) + Long.parseLong(f[12])) * 10.0; // USER_HZ 100
                            out[1] += ms;
                            if (t.getFileName().equals(p.getFileName())) { // the main thread: tid = pid
                                out[0] += ms;
                            }
                        }
                    }
                } catch (Exception e) {
                    // not a process, or one that ended meanwhile
                }
            }
        } catch (Exception e) {
            return new double[] {-1, -1};
        }
        return out;
    }

    /**
     * The page's interaction script: {@code n} inputs 33 ms apart (a held key's auto-repeat), alternating W/S/A/D
     * keys and mouse-wheel zooms and pans over the space-time view, without waiting for answers; then waits until
     * the last window is drawn. Returns the page's frame measures ({@code dsmview:frame}) taken meanwhile, the
     * intervals between animation frames, the time from the last input to the picture of its data, and the
     * JavaScript heap.
     */
    static final String INTERACT = ""
            + "const done = arguments[arguments.length - 1]; const n = arguments[0];"
            + "const c = document.getElementById('spacetime'); const r = c.getBoundingClientRect();"
            + "const keys = ['w','w','d','w','a','s','d','w','w','a','s','s','d','w','s','a'];"
            + "const t0 = performance.now(); const gaps = []; let last = t0, running = true; const longTasks = [];"
            + "const lt = new PerformanceObserver((l) => { for (const e of l.getEntries()) longTasks.push(e.duration); });"
            + "try { lt.observe({type: 'longtask'}); } catch (e) { }"
            + "(function tick(t) { gaps.push(t - last); last = t; if (running) requestAnimationFrame(tick); })(t0);"
            + "let i = 0, lastAt = 0;"
            + "function input() {"
            + "  if (i >= n) { finish(); return; }"
            + "  lastAt = performance.now();"
            + "  if (i % 2 === 0) c.dispatchEvent(new KeyboardEvent('keydown', {key: keys[(i / 2) % keys.length], bubbles: true}));"
            + "  else c.dispatchEvent(new WheelEvent('wheel', {deltaY: (i % 4 === 1) ? -100 : 100,"
            + "    deltaX: (i % 8 === 7) ? 120 : 0, clientX: r.left + r.width * 0.6, clientY: r.top + 40, bubbles: true, cancelable: true}));"
            + "  i++; setTimeout(input, 33);"
            + "}"
            + "function finish() {"
            + "  (function wait() { if (!window.dsmview.ready) { setTimeout(wait, 2); return; }"
            + "    const settle = performance.now() - lastAt;"
            + "    requestAnimationFrame(() => { running = false; lt.disconnect();"
            + "      const frames = performance.getEntriesByName('dsmview:frame').filter((e) => e.startTime >= t0)"
            + "        .map((e) => e.duration);"
            + "      const st = performance.getEntriesByName('dsmview:space-time').filter((e) => e.startTime >= t0)"
            + "        .map((e) => e.duration);"
            + "      const pictures = performance.getEntriesByName('dsmview:picture').filter((e) => e.startTime >= t0)"
            + "        .map((e) => e.duration);"
            + "      done({frames: frames, spaceTime: st, pictures: pictures, gaps: gaps.slice(1), settle: settle,"
            + "        wall: performance.now() - t0,"
            + "        longTasks: longTasks, heap: performance.memory ? performance.memory.usedJSHeapSize : -1}); }); })();"
            + "}"
            + "input();";

    /**
     * With -Dviewer.gpu=true the browser runs without {@code --disable-gpu}: its GPU process rasterizes (a GPU, or
     * SwiftShader where there is none), as a user's browser does; by default it runs as the tests run it.
     */
    static final boolean GPU = Boolean.getBoolean("viewer.gpu");

    /** With -Dviewer.profile=true: the renderer's JavaScript CPU profile during the interaction, by function. */
    static final boolean PROFILE = Boolean.getBoolean("viewer.profile");

    /**
     * Prints the 20 functions (name, script, line) with the most self time of a CDP {@code Profiler.stop} profile:
     * samples attributed to their node, nodes merged by call frame; "(program)" is the browser's own work outside
     * JavaScript (style, layout, paint, canvas rasterization), "(garbage collector)" V8's.
     */
    @SuppressWarnings("unchecked")
    static void printProfile(int run, Object profile) {
        Map<String, Object> p = (Map<String, Object>) profile;
        Map<Long, String> frame = new java.util.HashMap<>();
        for (Object o : (List<?>) p.get("nodes")) {
            Map<String, Object> n = (Map<String, Object>) o;
            Map<String, Object> f = (Map<String, Object>) n.get("callFrame");
            String url = String.valueOf(f.get("url"));
            String name = String.valueOf(f.get("functionName"));
            frame.put(((Number) n.get("id")).longValue(), (name.isEmpty() ? "(anonymous)" : name)
                    + (url.isEmpty() ? "" : " " + url.substring(url.lastIndexOf('/') + 1) + ":"
                    + (((Number) f.get("lineNumber")).intValue() + 1)));
        }
        List<?> samples = (List<?>) p.get("samples");
        List<?> deltas = (List<?>) p.get("timeDeltas");
        Map<String, Double> self = new java.util.HashMap<>();
        double total = 0;
        for (int i = 0; i + 1 < samples.size(); i++) {
            double ms = ((Number) deltas.get(i + 1)).doubleValue() / 1000; // the time until the next sample
            self.merge(frame.get(((Number) samples.get(i)).longValue()), ms, Double::sum);
            total += ms;
        }
        final double all = total;
        System.out.printf(Locale.ROOT, "run %d: JavaScript profile, self time by function (%.0f ms sampled):%n", run,
                all);
        self.entrySet().stream().sorted(Map.Entry.<String, Double>comparingByValue().reversed()).limit(20)
                .forEach(e -> System.out.printf(Locale.ROOT, "  %8.1f ms %5.1f %%  %s%n", e.getValue(),
                        100 * e.getValue() / all, e.getKey()));
    }

    /**
     * Opens {@code url} (a viewer already started) in {@code runs} fresh browsers in turn: the first complete
     * picture, then the interaction script; prints the figures of each run.
     */
    static void pageRuns(String url, int runs, String shot, Path profile) throws Exception {
        System.out.println(GPU ? "browser: headless Chromium with its GPU process (GPU or SwiftShader rasterization)"
                : "browser: headless Chromium with --disable-gpu (software rasterization on the renderer's main thread)");
        for (int run = 1; run <= runs; run++) {
            Path runDir = profile.resolve("run" + run);
            ChromeDriver d = browser(runDir);
            try {
                JavascriptExecutor js = d;
                d.get(url);
                new WebDriverWait(d, Duration.ofSeconds(120)).until(x -> js.executeScript(
                        "return performance.getEntriesByName('dsmview:first-picture').length > 0"));
                double first = ((Number) js.executeScript(
                        "return performance.getEntriesByName('dsmview:first-picture')[0].startTime")).doubleValue();
                if (run == 1 && shot != null) {
                    Files.copy(d.getScreenshotAs(org.openqa.selenium.OutputType.FILE).toPath(), Path.of(shot),
                            java.nio.file.StandardCopyOption.REPLACE_EXISTING);
                }
                if (PROFILE) {
                    d.executeCdpCommand("Profiler.enable", Map.of());
                    d.executeCdpCommand("Profiler.setSamplingInterval", Map.of("interval", 250));
                    d.executeCdpCommand("Profiler.start", Map.of());
                }
                double[] cpu0 = rendererCpu(runDir);
                @SuppressWarnings("unchecked")
                Map<String, Object> res = (Map<String, Object>) js.executeAsyncScript(INTERACT, 60);
                double[] cpu1 = rendererCpu(runDir);
                if (PROFILE) {
                    printProfile(run, d.executeCdpCommand("Profiler.stop", Map.of()).get("profile"));
                }
                List<Double> frames = doubles(res.get("frames"));
                List<Double> gaps = doubles(res.get("gaps"));
                List<Double> st = doubles(res.get("spaceTime"));
                System.out.printf(Locale.ROOT, "run %d: first complete picture %.0f ms after navigation start"
                        + " (server answers %s)%n", run, first, run == 1 ? "computed" : "cached");
                System.out.printf(Locale.ROOT, "run %d: draw per frame while zooming and panning (60 inputs, keys"
                        + " and wheel, 33 ms apart): median %.1f ms, p95 %.1f ms, max %.1f ms (%d frames)%n", run,
                        pct(frames, 0.5), pct(frames, 0.95), pct(frames, 1), frames.size());
                System.out.printf(Locale.ROOT, "run %d: renderer CPU meanwhile: main thread %.0f ms, all threads"
                        + " %.0f ms, i.e. %.1f / %.1f ms per drawn frame%n", run, cpu1[0] - cpu0[0],
                        cpu1[1] - cpu0[1], (cpu1[0] - cpu0[0]) / frames.size(), (cpu1[1] - cpu0[1]) / frames.size());
                System.out.printf(Locale.ROOT, "run %d: of which the space-time view: median %.1f ms, p95 %.1f"
                        + " ms%n", run, pct(st, 0.5), pct(st, 0.95));
                List<Double> pictures = doubles(res.get("pictures"));
                System.out.printf(Locale.ROOT, "run %d: frames that drew the space-time view from the data (the"
                        + " others show the last picture shifted or scaled): %d, median %.1f ms, max %.1f ms%n", run,
                        pictures.size(), pct(pictures, 0.5), pct(pictures, 1));
                System.out.printf(Locale.ROOT, "run %d: interval between animation frames meanwhile: median %.1f"
                        + " ms, p95 %.1f ms (%d frames)%n", run, pct(gaps, 0.5), pct(gaps, 0.95), gaps.size());
                List<Double> longTasks = doubles(res.get("longTasks"));
                System.out.printf(Locale.ROOT, "run %d: long tasks (over 50 ms) meanwhile: %d, %.0f ms in all%n", run,
                        longTasks.size(), longTasks.stream().mapToDouble(Double::doubleValue).sum());
                System.out.printf(Locale.ROOT, "run %d: last input to the picture of its window's data and"
                        + " tables: %.0f ms (60 ms debounce included)%n", run,
                        ((Number) res.get("settle")).doubleValue());
                System.out.printf(Locale.ROOT, "run %d: page memory: JavaScript heap %.1f MB, renderer"
                        + " PSS %.1f MB%n", run, ((Number) res.get("heap")).doubleValue() / 1e6,
                        rendererRss(runDir) / 1e6);
            } finally {
                d.quit();
            }
        }
    }

    /**
     * Runs the benchmark: args [events] [processes] [runs] [screenshot of the first picture, a PNG path], or URL
     * [runs] for a viewer already started.
     */
    public static void main(String[] args) throws Exception {
        if (args.length > 0 && args[0].startsWith("http://")) {
            // a viewer already started (e.g. dsmscope view on a trace set): only the page's figures
            Path profile = Files.createTempDirectory("viewer-bench-chromium");
            try {
                pageRuns(args[0], args.length > 1 ? Integer.parseInt(args[1]) : 3, null, profile);
            } finally {
                try (var s = Files.walk(profile)) {
                    s.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
                }
            }
            return;
        }
        int n = args.length > 0 ? Integer.parseInt(args[0]) : 1_000_000;
        int procs = args.length > 1 ? Integer.parseInt(args[1]) : 8;
        int runs = args.length > 2 ? Integer.parseInt(args[2]) : 3;
        String shot = args.length > 3 ? args[3] : null;
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
            for (String q : new String[] {"t0=" + src.timeline().end() / 4 + "&t1=" + src.timeline().end() * 3 / 4,
                    "t0=" + src.timeline().end() / 2 + "&t1=" + (src.timeline().end() / 2 + src.timeline().end() / 1000)}) {
                for (String api : new String[] {"window", "tables"}) {
                    long a = System.nanoTime();
                    HttpResponse<byte[]> r = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:"
                            + server.port() + "/api/" + api + "?bins=600&" + q)).build(),
                            HttpResponse.BodyHandlers.ofByteArray());
                    System.out.printf(Locale.ROOT, "/api/%s?%s: %.1f ms, %d bytes%n", api, q,
                            (System.nanoTime() - a) / 1e6, r.body().length);
                }
            }
            pageRuns("http://127.0.0.1:" + server.port() + "/", runs, shot, profile);
        } finally {
            try (var s = Files.walk(profile)) {
                s.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
            Files.deleteIfExists(rec);
            Files.deleteIfExists(dir);
        }
    }
}
