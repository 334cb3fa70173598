package org.dsmscope.viewer.server;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.TakesScreenshot;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * Headless Chromium driven by Selenium with the system's chromium and chromedriver (never a downloaded browser);
 * tests that need it are skipped, with the reason, where none is installed.
 */
final class Browser implements AutoCloseable {
    static final Path DRIVER = Path.of("/usr/bin/chromedriver");
    static final Path CHROMIUM = Path.of("/usr/bin/chromium");
    final ChromeDriver driver;
    private final Path profile;

    private Browser(ChromeDriver driver, Path profile) {
        this.driver = driver;
        this.profile = profile;
    }

    /** Starts a browser, or skips the test when none is installed. */
    static Browser start() throws Exception {
        assumeTrue(Files.isExecutable(DRIVER) && Files.isExecutable(CHROMIUM),
                "browser tests need /usr/bin/chromium and /usr/bin/chromedriver (apt-get install chromium chromium-driver)");
        Path profile = Files.createTempDirectory("dsmscope-chromium");
        ChromeDriverService service = new ChromeDriverService.Builder().usingDriverExecutable(DRIVER.toFile())
                .usingAnyFreePort().build();
        ChromeOptions o = new ChromeOptions();
        o.setBinary(CHROMIUM.toFile());
        o.addArguments("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run",
                "--window-size=1400,1100", "--user-data-dir=" + profile);
        return new Browser(new ChromeDriver(service, o), profile);
    }

    /** Runs a script and returns its value. */
    Object js(String script, Object... args) {
        return ((JavascriptExecutor) driver).executeScript(script, args);
    }

    /** Waits until the page has drawn the data of its current window. */
    void awaitReady() {
        new WebDriverWait(driver, Duration.ofSeconds(30)).until(d -> Boolean.TRUE.equals(
                js("return !!(window.dsmview && window.dsmview.ready && window.dsmview.data())")));
    }

    /** Waits until {@code script} returns true. */
    void await(String script) {
        new WebDriverWait(driver, Duration.ofSeconds(30)).until(d -> Boolean.TRUE.equals(js(script)));
    }

    /** Saves a screenshot under viewer/target/screenshots. */
    void screenshot(String name) throws Exception {
        Path dir = Path.of("target", "screenshots");
        Files.createDirectories(dir);
        File f = ((TakesScreenshot) driver).getScreenshotAs(OutputType.FILE);
        Files.copy(f.toPath(), dir.resolve(name + ".png"), java.nio.file.StandardCopyOption.REPLACE_EXISTING);
    }

    /**
     * Saves a screenshot of one view (the element {@code css} selects) as target/screenshots/views/NAME.png: the
     * pictures viewer/README.md shows are copied from there.
     */
    void view(String name, String css) throws Exception {
        Path dir = Path.of("target", "screenshots", "views");
        Files.createDirectories(dir);
        File f = driver.findElement(org.openqa.selenium.By.cssSelector(css)).getScreenshotAs(OutputType.FILE);
        Files.copy(f.toPath(), dir.resolve(name + ".png"), java.nio.file.StandardCopyOption.REPLACE_EXISTING);
    }

    @Override
    public void close() throws Exception {
        driver.quit();
        try (var s = Files.walk(profile)) {
            s.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
    }
}
