package org.dsmscope.bench.report;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import org.dsmscope.report.Inputs;
import org.dsmscope.report.Report;

/**
 * Timing harness of the report (issue 25's targets: a 5-point study's report written in under 2 s, under 2 MB, open
 * in Chromium in under 1 s): {@code ReportTiming RESULT... [--rounds N] [--chromium PATH]}. Reads the results and
 * writes the page N times in one JVM (the first round is a fresh JVM's: what {@code dsmscope report} pays), prints
 * each round's wall time, the median of the others and the page's size; then, with a Chromium, the median wall time
 * of {@code chromium --headless=new --dump-dom} on the page minus the same on an empty page (the browser's own
 * start), which is the time the page takes to load, lay out and run its script.
 */
public final class ReportTiming {
    private ReportTiming() {
    }

    public static void main(String[] args) throws Exception {
        List<Path> files = new ArrayList<>();
        int rounds = 10;
        String chromium = Files.isExecutable(Paths.get("/usr/bin/chromium")) ? "/usr/bin/chromium" : null;
        for (int i = 0; i < args.length; i++) {
            if (args[i].equals("--rounds")) {
                rounds = Integer.parseInt(args[++i]);
            } else if (args[i].equals("--chromium")) {
                chromium = "none".equals(args[++i]) ? null : args[i];
            } else {
                files.add(Paths.get(args[i]));
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
        if (chromium != null) {
            Path empty = Files.createTempFile("report-timing-empty", ".html");
            Files.writeString(empty, "<!DOCTYPE html><html><body></body></html>");
            double[] page = new double[5];
            double[] base = new double[5];
            for (int i = 0; i < 5; i++) {
                base[i] = open(chromium, empty);
                page[i] = open(chromium, out);
            }
            System.out.printf(Locale.ROOT, "chromium --dump-dom: page median %.0f ms, empty page median %.0f ms:"
                    + " the page's own %.0f ms%n", median(page), median(base), median(page) - median(base));
            Files.deleteIfExists(empty);
        }
        Files.deleteIfExists(out);
    }

    private static double open(String chromium, Path page) throws IOException, InterruptedException {
        Path profile = Files.createTempDirectory("report-timing-profile");
        long t0 = System.nanoTime();
        Process p = new ProcessBuilder(chromium, "--headless=new", "--no-sandbox", "--disable-gpu",
                "--disable-dev-shm-usage", "--disable-background-networking", "--disable-component-update",
                "--disable-sync", "--no-first-run", "--user-data-dir=" + profile, "--dump-dom",
                page.toUri().toString()).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .start();
        if (!p.waitFor(60, TimeUnit.SECONDS)) {
            p.destroyForcibly();
        }
        double ms = (System.nanoTime() - t0) / 1e6;
        try (var s = Files.walk(profile)) {
            s.sorted(java.util.Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
        }
        return ms;
    }

    private static double median(double[] v) {
        double[] s = v.clone();
        Arrays.sort(s);
        return s.length == 0 ? 0 : s.length % 2 == 1 ? s[s.length / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
    }
}
