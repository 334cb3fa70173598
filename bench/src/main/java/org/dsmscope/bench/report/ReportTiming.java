package org.dsmscope.bench.report;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import org.dsmscope.report.Inputs;
import org.dsmscope.report.Report;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * Timing harness of the report (issue 25's targets: a 5-point study's report written in under 2 s, under 2 MB, open
 * in Chromium in under 1 s): {@code ReportTiming RESULT... [--rounds N] [--opens N] [--chromium PATH|none]
 * [--driver PATH]}. Reads the results and writes the page N times in one JVM (the first round is a fresh JVM's: what
 * {@code dsmscope report} pays), prints each round's wall time, the median of the others and the page's size; then
 * opens the page in headless Chromium through Selenium (chromedriver), the first time in a fresh browser and then
 * {@code --opens} more times, and prints the time from navigation start to the page's {@code dsmscope-ready}
 * performance mark (set in the first frame after the load event: every chart drawn) and to the load event's end.
 * Not a JMH benchmark (a browser is in the loop); never run by {@code mvn verify}.
 */
public final class ReportTiming {
    private ReportTiming() {
    }

    public static void main(String[] args) throws Exception {
        List<Path> files = new ArrayList<>();
        int rounds = 10;
        int opens = 10;
        String chromium = Files.isExecutable(Paths.get("/usr/bin/chromium")) ? "/usr/bin/chromium" : null;
        String driver = "/usr/bin/chromedriver";
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--rounds" -> rounds = Integer.parseInt(args[++i]);
                case "--opens" -> opens = Integer.parseInt(args[++i]);
                case "--chromium" -> chromium = "none".equals(args[++i]) ? null : args[i];
                case "--driver" -> driver = args[++i];
                default -> files.add(Paths.get(args[i]));
            }
        }
        Path out = Files.createTempFile("report-timing", ".html");
        double[] ms = new double[rounds];
        for (int r = 0; r < rounds; r++) {
            long t0 = System.nanoTime();
            Report.write(Inputs.read(files, true), out);
            ms[r] = (System.nanoTime() - t0) / 1e6;
            System.out.printf(Locale.ROOT, "round %d: %.1f ms%n", r + 1, ms[r]);
        }
        double[] warm = Arrays.copyOfRange(ms, Math.min(1, rounds - 1), rounds);
        System.out.printf(Locale.ROOT, "write: first %.1f ms, median of the rest %.1f ms; page %,d bytes%n", ms[0],
                median(warm), Files.size(out));
        if (chromium != null && Files.isExecutable(Paths.get(driver))) {
            open(chromium, driver, out, opens);
        } else if (chromium != null) {
            System.out.println("open: no " + driver + " (install chromium-driver), not measured");
        }
        Files.deleteIfExists(out);
    }

    /** Opens the page in a fresh headless Chromium, then {@code opens} more times; prints the times. */
    private static void open(String chromium, String driverPath, Path page, int opens) throws Exception {
        Path profile = Files.createTempDirectory("report-timing-profile");
        ChromeDriverService service = new ChromeDriverService.Builder().usingDriverExecutable(new File(driverPath))
                .usingAnyFreePort().build();
        ChromeOptions o = new ChromeOptions();
        o.setBinary(chromium);
        o.addArguments("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run",
                "--user-data-dir=" + profile, "--window-size=1100,1400");
        ChromeDriver d = new ChromeDriver(service, o);
        try {
            double[] first = load(d, page);
            System.out.printf(Locale.ROOT, "open: first load (fresh browser) ready %.0f ms, load event end %.0f ms%n",
                    first[0], first[1]);
            double[] ready = new double[opens];
            double[] loaded = new double[opens];
            for (int i = 0; i < opens; i++) {
                double[] t = load(d, page);
                ready[i] = t[0];
                loaded[i] = t[1];
            }
            double[] sorted = ready.clone();
            Arrays.sort(sorted);
            System.out.printf(Locale.ROOT, "open: %d more loads, ready median %.0f ms (%.0f–%.0f), load event end"
                    + " median %.0f ms%n", opens, median(ready), sorted.length > 0 ? sorted[0] : 0,
                    sorted.length > 0 ? sorted[sorted.length - 1] : 0, median(loaded));
        } finally {
            d.quit();
            try (var s = Files.walk(profile)) {
                s.sorted(Comparator.reverseOrder()).map(Path::toFile).forEach(File::delete);
            }
        }
    }

    /** One navigation to the page: ms from navigation start to the ready mark and to the load event's end. */
    private static double[] load(ChromeDriver d, Path page) {
        d.get("about:blank");
        d.get(page.toUri().toString());
        JavascriptExecutor js = d;
        new WebDriverWait(d, Duration.ofSeconds(60)).until(x -> "1".equals(js.executeScript(
                "return document.documentElement.getAttribute('data-ready')")));
        Number ready = (Number) js.executeScript(
                "return performance.getEntriesByName('dsmscope-ready')[0].startTime");
        Number loaded = (Number) js.executeScript(
                "return performance.getEntriesByType('navigation')[0].loadEventEnd");
        return new double[] {ready.doubleValue(), loaded.doubleValue()};
    }

    private static double median(double[] v) {
        double[] s = v.clone();
        Arrays.sort(s);
        return s.length == 0 ? 0 : s.length % 2 == 1 ? s[s.length / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
    }
}
