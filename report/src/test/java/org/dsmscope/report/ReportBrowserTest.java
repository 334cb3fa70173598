package org.dsmscope.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.Map;
import java.util.logging.Level;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.interactions.Actions;
import org.openqa.selenium.logging.LogEntry;
import org.openqa.selenium.logging.LogType;
import org.openqa.selenium.logging.LoggingPreferences;

/**
 * The report of a study (MatMul traced by the agent over 1, 2 and 4 threads: CIAT, CDAT, TDAT results in
 * src/test/resources/study) rendered in headless Chromium: the plotted values are the JSON's, the page fetches
 * nothing and logs no error. Screenshots go to target/screenshots/ for a person to look at. Skipped when
 * /usr/bin/chromedriver is not installed.
 */
class ReportBrowserTest {
    private static final Path DRIVER = Paths.get("/usr/bin/chromedriver");
    private static final Path BROWSER = Paths.get("/usr/bin/chromium");
    private static final Path STUDY = Paths.get("src/test/resources/study");
    private static final Path SHOTS = Paths.get("target/screenshots");

    private static ChromeDriver driver;
    private static Path page;
    private static Path profile;

    @BeforeAll
    static void open() throws Exception {
        assumeTrue(Files.isExecutable(DRIVER) && Files.isExecutable(BROWSER),
                "no headless browser: install chromium and chromium-driver (/usr/bin/chromedriver) to run this test");
        Path dir = Paths.get("target/browser");
        Files.createDirectories(dir);
        Files.createDirectories(SHOTS);
        page = dir.resolve("study-report.html").toAbsolutePath();
        Inputs in = Inputs.read(List.of(STUDY.resolve("study.json"),
                Paths.get("src/test/resources/matmul.4.sweep.json")), false);
        Report.write(in, page);
        profile = Files.createTempDirectory("dsmscope-chromium");
        ChromeDriverService service = new ChromeDriverService.Builder().usingDriverExecutable(DRIVER.toFile())
                .usingAnyFreePort().build();
        ChromeOptions o = new ChromeOptions();
        o.setBinary(BROWSER.toFile());
        o.addArguments("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run",
                "--user-data-dir=" + profile);
        LoggingPreferences logs = new LoggingPreferences();
        logs.enable(LogType.BROWSER, Level.ALL);
        o.setCapability("goog:loggingPrefs", logs);
        driver = new ChromeDriver(service, o);
        driver.manage().window().setSize(new Dimension(1100, 1400));
        driver.get(page.toUri().toString());
    }

    @AfterAll
    static void close() throws Exception {
        if (driver != null) {
            driver.quit();
        }
        if (profile != null) {
            try (var s = Files.walk(profile)) {
                s.sorted(java.util.Comparator.reverseOrder()).map(Path::toFile).forEach(File::delete);
            }
        }
    }

    private static JsonNode json(String run) throws Exception {
        return new ObjectMapper().readTree(STUDY.resolve(run).toFile());
    }

    private static void shot(String name) throws Exception {
        Files.copy(driver.getScreenshotAs(OutputType.FILE).toPath(), SHOTS.resolve(name + ".png"),
                StandardCopyOption.REPLACE_EXISTING);
    }

    private static WebElement scrollTo(String css) {
        WebElement e = driver.findElement(By.cssSelector(css));
        ((JavascriptExecutor) driver).executeScript("arguments[0].scrollIntoView({block:'start'})", e);
        return e;
    }

    @Test
    void heatMapCell_isTheMatrixEntryOfTheJson_andShowsItOnHover() throws Exception {
        JsonNode m = json("t4/matmul.ciat.json").path("aggregate").path("communication").path("matrix");
        for (int i = 0; i < 4; i++) {
            for (int j = 0; j < 4; j++) {
                WebElement cell = driver.findElement(By.cssSelector("#matmul-matrix-p-4 rect.cell[data-from=\"" + i
                        + "\"][data-to=\"" + j + "\"]"));
                assertEquals(m.get(i).get(j).asText(), cell.getDomAttribute("data-value"), "P" + i + " -> P" + j);
            }
        }
        scrollTo("#matmul-matrix");
        WebElement cell = driver.findElement(By.cssSelector("#matmul-matrix-p-4 rect.cell[data-from=\"0\"][data-to=\"1\"]"));
        new Actions(driver).moveToElement(cell).perform();
        String tip = driver.findElement(By.id("tip")).getText();
        assertEquals("P0 → P1: " + String.format(java.util.Locale.ROOT, "%,d", m.get(0).get(1).asLong()) + " events",
                tip);
        shot("matrix-hover");
    }

    @Test
    void sharingDegreeBar_isSOfTheJson_andItsHeightIsItsShare() throws Exception {
        JsonNode s = json("t4/matmul.ciat.json").path("aggregate").path("communication").path("sharingDegree");
        long sum = 0;
        for (JsonNode v : s) {
            sum += v.asLong();
        }
        double plot = Svg.H - Svg.BOTTOM - Svg.TOP;
        double top = 0;
        for (int k = 1; k <= 4; k++) {
            long v = s.get(k - 1).asLong();
            List<WebElement> bars = driver.findElements(By.cssSelector("#matmul-sharing-degree-chart rect.bar"
                    + "[data-series=\"p=4\"][data-x=\"" + k + "\"]"));
            assertEquals(Long.toString(v), bars.get(0).getDomAttribute("data-value"), "S[" + k + "]");
            top = Math.max(top, 100.0 * v / sum);
        }
        // the y axis ends at 100% when a share is above 50%, else at the next nice number: the tallest bar's height
        double axis = top > 50 ? 100 : Svg.niceMax(top);
        for (int k = 1; k <= 4; k++) {
            long v = s.get(k - 1).asLong();
            WebElement bar = driver.findElement(By.cssSelector("#matmul-sharing-degree-chart rect.bar"
                    + "[data-series=\"p=4\"][data-x=\"" + k + "\"]"));
            double h = Double.parseDouble(bar.getDomAttribute("height"));
            assertEquals(plot * (100.0 * v / sum) / axis, h, 0.06, "height of S[" + k + "]");
        }
        scrollTo("#matmul-sharing-degree");
        shot("sharing-degree");
    }

    @Test
    void accessAgeCdfPoint_isTheCumulativeCountOfTheJson_atItsShareOfFiniteAges() throws Exception {
        JsonNode age = json("t2/matmul.ciat.json").path("aggregate").path("accessAge");
        JsonNode cdf = age.path("cdf");
        assertTrue(cdf.size() > 4);
        List<WebElement> pts = driver.findElements(By.cssSelector("#matmul-access-age-chart circle.pt"
                + "[data-series=\"p=2, thread scope\"]"));
        // one point per power of two, the knees drawn as rings
        long rings = pts.stream().filter(e -> e.getDomAttribute("class").contains("knee")).count();
        assertEquals(cdf.size(), pts.size());
        assertTrue(rings >= 1, "at least one working-set knee");
        assertCdfPointsAreTheJsons("p=2, thread scope", age);
        scrollTo("#matmul-access-age");
        shot("access-age");
    }

    /** Every point of a CDF line carries the JSON's cumulative count, at its share of the finite ages' height. */
    private static void assertCdfPointsAreTheJsons(String series, JsonNode age) {
        long finite = age.path("accesses").asLong() - age.path("infinite").asLong();
        for (JsonNode point : age.path("cdf")) {
            WebElement e = driver.findElement(By.cssSelector("#matmul-access-age-chart circle.pt[data-series=\""
                    + series + "\"][data-x=\"" + point.path("bytes").asText() + "\"]"));
            assertEquals(point.path("accesses").asText(), e.getDomAttribute("data-value"));
            double y = 100.0 * point.path("accesses").asLong() / finite;
            double cy = Svg.H - Svg.BOTTOM - (Svg.H - Svg.BOTTOM - Svg.TOP) * y / 100;
            assertEquals(cy, Double.parseDouble(e.getDomAttribute("cy")), 0.06, series + ": y of " + point);
        }
    }

    @Test
    void speedupPoints_areOneAtOneThread_andTheJsonsSpeedupAtMore() throws Exception {
        List<WebElement> pts = driver.findElements(By.cssSelector("#matmul-speedup-chart circle.pt"));
        assertEquals(3, pts.size(), "one point per thread count");
        WebElement one = driver.findElement(By.cssSelector("#matmul-speedup-chart circle.pt[data-x=\"1\"]"));
        assertEquals("1", one.getDomAttribute("data-value"));
        for (String p : new String[] {"2", "4"}) {
            JsonNode s = json("t" + p + "/matmul.ciat.json").path("aggregate").path("concurrency").path("speedup");
            assertTrue(s.isNumber(), "the study gave CIAT Busy(1) of the one-thread run");
            WebElement e = driver.findElement(By.cssSelector("#matmul-speedup-chart circle.pt[data-x=\"" + p + "\"]"));
            assertEquals(s.asDouble(), Double.parseDouble(e.getDomAttribute("data-value")), 0.0);
        }
        scrollTo("#matmul-concurrency");
        shot("concurrency-speedup");
    }

    @Test
    void everyStudyFigure_hasOnePointOrBarPerThreadCount() {
        for (String chart : new String[] {"#matmul-mix-chart", "#matmul-communication-chart", "#matmul-sizes-chart",
            "#matmul-accesses-chart", "#matmul-concurrency-chart"}) {
            for (WebElement bar : driver.findElements(By.cssSelector(chart + " rect.bar"))) {
                assertTrue(List.of("p=1", "p=2", "p=4").contains(bar.getDomAttribute("data-x")), chart);
            }
            for (String p : new String[] {"p=1", "p=2", "p=4"}) {
                assertTrue(!driver.findElements(By.cssSelector(chart + " rect.bar[data-x=\"" + p + "\"]")).isEmpty(),
                        chart + " " + p);
            }
        }
    }

    @Test
    void page_fetchesNothing_andLogsNoError() throws Exception {
        driver.get(page.toUri().toString());
        Object resources = ((JavascriptExecutor) driver).executeScript(
                "return performance.getEntriesByType('resource').map(function(e){return e.name;})");
        assertEquals(List.of(), resources, "resources the page fetched");
        Object nav = ((JavascriptExecutor) driver).executeScript(
                "return performance.getEntriesByType('navigation').map(function(e){return e.name;})");
        assertEquals(List.of(page.toUri().toString()), nav);
        // for a person (never asserted): how long the page took to load, lay out and run its script
        Object took = ((JavascriptExecutor) driver).executeScript(
                "return performance.getEntriesByType('navigation')[0].loadEventEnd");
        System.out.println("ReportBrowserTest: the 3-run study's report loaded in " + took + " ms ("
                + Files.size(page) + " bytes)");
        for (LogEntry e : driver.manage().logs().get(LogType.BROWSER)) {
            assertTrue(e.getLevel().intValue() < Level.WARNING.intValue(), "console: " + e);
        }
        Object svgs = ((JavascriptExecutor) driver).executeScript("return document.querySelectorAll('svg').length");
        assertTrue(((Number) svgs).intValue() > 20, "charts drawn: " + svgs);
        shot("top");
    }

    @Test
    void explainSection_topCauseBarIsTheJsonsCost_andTheFalseSharingTableNamesBothElements() throws Exception {
        Path fs = Paths.get("src/test/resources/explain/falsesharing.2.explain.json");
        Path out = page.resolveSibling("explain-report.html");
        Report.write(Inputs.read(List.of(fs), false), out);
        try {
            driver.get(out.toUri().toString());
            JsonNode top = new ObjectMapper().readTree(fs.toFile()).path("byCause").get(0);
            WebElement bar = driver.findElements(By.cssSelector("#falsesharing-explain-line-causes-chart rect.bar"))
                    .get(0);
            assertEquals(top.path("label").asText(), bar.getDomAttribute("data-x"));
            assertEquals(Json.raw(top.path("cost")), bar.getDomAttribute("data-value"));
            scrollTo("#falsesharing-explain-line-causes");
            new Actions(driver).moveToElement(bar).perform();
            String tip = driver.findElement(By.id("tip")).getText();
            assertTrue(tip.startsWith(top.path("label").asText() + ": ")
                    && tip.contains(Fmt.pct(100 * top.path("share").asDouble())), tip);
            shot("explain-causes-hover");
            JsonNode json = new ObjectMapper().readTree(fs.toFile());
            WebElement pat = driver.findElements(By.cssSelector("#falsesharing-explain-line-patterns-chart rect.bar"))
                    .get(0);
            double cost = json.path("costByPattern").path(pat.getDomAttribute("data-x")).asDouble();
            assertEquals(cost, Double.parseDouble(pat.getDomAttribute("data-value")), 0.0, "the pattern's cost");
            scrollTo("#falsesharing-explain-line-patterns");
            new Actions(driver).moveToElement(pat).perform();
            String patTip = driver.findElement(By.id("tip")).getText();
            assertTrue(patTip.startsWith("migratory: ") && patTip.contains(Fmt.pct(100 * cost
                    / json.path("totalCost").asDouble())), patTip);
            shot("explain-patterns-hover");
            WebElement table = scrollTo("#falsesharing-explain-line-false-sharing details table");
            assertTrue(table.isDisplayed(), "the false-sharing table is open");
            assertTrue(table.getText().contains("long[0] at offset 16 written")
                    && table.getText().contains("long[1] at offset 24 written"), table.getText());
            scrollTo("#falsesharing-explain-line-false-sharing");
            shot("explain-false-sharing");
        } finally {
            driver.get(page.toUri().toString());
        }
    }

    @Test
    void fullPageScreenshot_forAPersonToLookAt() throws Exception {
        Object height = ((JavascriptExecutor) driver).executeScript("return document.body.scrollHeight");
        Map<String, Object> metrics = Map.of("width", 1100, "height", ((Number) height).intValue(),
                "deviceScaleFactor", 1, "mobile", false);
        driver.executeCdpCommand("Emulation.setDeviceMetricsOverride", metrics);
        try {
            shot("full-page");
        } finally {
            driver.executeCdpCommand("Emulation.clearDeviceMetricsOverride", Map.of());
        }
        assertTrue(Files.size(SHOTS.resolve("full-page.png")) > 10_000);
    }

    @Test
    void globalAccessAgeCdfPoint_isTheGlobalJsonsCount_besideTheThreadScopeLineOfTheSameRun() throws Exception {
        JsonNode age = json("t4/matmul.global.ciat.json").path("aggregate").path("accessAge");
        assertEquals("global", age.path("scope").asText());
        assertCdfPointsAreTheJsons("p=4, global scope", age);
        // the same run's two scopes share a colour: its thread-scope points are drawn in the global line's colour
        String global = driver.findElement(By.cssSelector("#matmul-access-age-chart circle.pt[data-series=\"p=4,"
                + " global scope\"]:not(.knee)")).getDomAttribute("fill");
        String thread = driver.findElement(By.cssSelector("#matmul-access-age-chart circle.pt[data-series=\"p=4,"
                + " thread scope\"]:not(.knee)")).getDomAttribute("fill");
        assertEquals(thread, global);
        assertTrue(driver.findElements(By.cssSelector("#matmul-access-age-chart circle.pt[data-series$=\"global"
                + " scope\"]")).size() >= 3 * 4, "a global line per thread count");
        scrollTo("#matmul-access-age");
        shot("access-age-thread-and-global");
    }

    @Test
    void cdatTrafficRateDensity_isTheTdatJsonsOfTheCdatDetailedTrace() throws Exception {
        for (String p : new String[] {"2", "4"}) {
            JsonNode t = json("t" + p + "/matmul.numa4.tdat.json");
            assertEquals("cdat-detailed", t.path("inputs").get(0).path("kind").asText());
            List<WebElement> pts = driver.findElements(By.cssSelector("#matmul-tdat-cdat-numa4-density-chart circle.pt"
                    + "[data-series=\"p=" + p + "\"]"));
            assertEquals(t.path("density").size(), pts.size(), "a point per rate class");
            for (int k = 0; k < pts.size(); k++) {
                assertEquals(Json.raw(t.path("density").get(k).path("density")), pts.get(k).getDomAttribute(
                        "data-value"), "class " + k + " at p=" + p);
            }
        }
        WebElement line = driver.findElement(By.cssSelector("#matmul-tdat-cdat-numa4-rate-chart path"));
        assertTrue(line.isDisplayed(), "the transaction rate over time is drawn");
        scrollTo("#matmul-tdat-cdat-numa4-rate");
        shot("tdat-cdat-traffic");
    }

    @Test
    void page_isMarkedReadyAfterItsFirstFrame() {
        driver.get(page.toUri().toString());
        new org.openqa.selenium.support.ui.WebDriverWait(driver, java.time.Duration.ofSeconds(30)).until(d -> "1"
                .equals(((JavascriptExecutor) d).executeScript(
                        "return document.documentElement.getAttribute('data-ready')")));
        Number mark = (Number) ((JavascriptExecutor) driver).executeScript(
                "return performance.getEntriesByName('dsmscope-ready')[0].startTime");
        Number load = (Number) ((JavascriptExecutor) driver).executeScript(
                "return performance.getEntriesByType('navigation')[0].loadEventEnd");
        assertTrue(mark.doubleValue() >= load.doubleValue(), "ready " + mark + " ms after the load event " + load);
    }

    /** One screenshot per figure (target/screenshots/figures/ID.png): the README's pictures are chosen from them. */
    @Test
    void everyFigure_screenshotForAPersonToLookAt() throws Exception {
        Path figs = SHOTS.resolve("figures");
        Files.createDirectories(figs);
        List<WebElement> all = driver.findElements(By.cssSelector("figure"));
        assertTrue(all.size() >= 20, "figures: " + all.size());
        for (WebElement f : all) {
            ((JavascriptExecutor) driver).executeScript("arguments[0].scrollIntoView({block:'start'})", f);
            Files.copy(f.getScreenshotAs(OutputType.FILE).toPath(), figs.resolve(f.getDomAttribute("id") + ".png"),
                    StandardCopyOption.REPLACE_EXISTING);
        }
        assertTrue(Files.size(figs.resolve("matmul-general.png")) > 5_000);
    }
}
