package org.dsmscope.viewer.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.dsmscope.dsm.Launcher;
import org.dsmscope.examples.dsm.WorkQueue;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.openqa.selenium.By;
import org.openqa.selenium.support.ui.Select;

/**
 * Starting a DSM program from the page (Xunify's menus, seed 002 §4.3): the form starts real member JVMs through
 * the {@link Launcher}, the page follows the run live (events, hosts and output arrive), a request from another
 * origin or without the page's header is refused, and the members die with the server.
 */
@Timeout(300)
class LaunchViewTest {
    /** The runner the cli gives the viewer, here with the test's class path. */
    static int run(String program, int members, List<String> args, double loss, java.util.function.IntConsumer started)
            throws Exception {
        Launcher.Options o = new Launcher.Options();
        o.members = members;
        o.loss = loss;
        o.livePort = 0;
        o.liveWaitSeconds = 30;
        o.liveStarted = started;
        o.timeoutSeconds = 240;
        o.command = new ArrayList<>(List.of(program));
        o.command.addAll(args);
        PrintStream quiet = new PrintStream(java.io.OutputStream.nullOutputStream());
        return Launcher.run(o, quiet, quiet);
    }

    private static int post(int port, String query, String header, String origin) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/api/launch?" + query))
                .POST(HttpRequest.BodyPublishers.noBody());
        if (header != null) {
            b.header("X-Dsmscope", header);
        }
        if (origin != null) {
            b.header("Origin", origin);
        }
        return HttpClient.newHttpClient().send(b.build(), HttpResponse.BodyHandlers.ofString()).statusCode();
    }

    /** Java processes this JVM started (the members: the test starts no other). */
    private static long members() {
        return ProcessHandle.current().descendants()
                .filter(p -> p.info().command().map(c -> c.endsWith("/bin/java")).orElse(false))
                .filter(ProcessHandle::isAlive).count();
    }

    @Test
    @SuppressWarnings("unchecked")
    void theFormStartsARun_andThePageFollowsItLive() throws Exception {
        String wq = WorkQueue.class.getName();
        try (ViewServer server = new ViewServer(List.of(), "127.0.0.1", 0, null); Browser b = Browser.start()) {
            server.launches(new Launches(List.of(wq), LaunchViewTest::run));
            b.driver.get("http://127.0.0.1:" + server.port() + "/");
            b.await("return !document.getElementById('launchPanel').hidden");
            assertTrue(b.driver.findElement(By.id("banner")).getText().startsWith("no input yet"));
            new Select(b.driver.findElement(By.id("lProgram"))).selectByValue(wq);
            b.driver.findElement(By.id("lMembers")).clear();
            b.driver.findElement(By.id("lMembers")).sendKeys("2");
            b.driver.findElement(By.id("lArgs")).sendKeys("30");
            b.driver.findElement(By.id("lStart")).click();
            b.await("return !!window.dsmview.meta() && window.dsmview.meta().source === 'live'");
            b.await("return window.dsmview.events() > 100");
            b.await("return window.dsmview.outputLines().includes('WorkQueue m0: 30 tasks on 2 members, results ok')");
            b.await("return window.dsmview.hosts().length === 2");
            List<Map<String, Object>> hosts = (List<Map<String, Object>>) b.js("return window.dsmview.hosts()");
            assertEquals(System.getProperty("os.arch"), hosts.get(0).get("arch"));
            b.screenshot("launch");
            long deadline = System.currentTimeMillis() + 60_000;
            while (!"0".equals(String.valueOf(server.launchesForTest().runs().get(0).get("status")))
                    && System.currentTimeMillis() < deadline) {
                Thread.sleep(100);
            }
            assertEquals(0, server.launchesForTest().runs().get(0).get("status"), "the run ended well");
        }
    }

    @Test
    void requestsFromElsewhere_andBadForms_areRefused_andRunsDieWithTheServer() throws Exception {
        String wq = WorkQueue.class.getName();
        ViewServer server = new ViewServer(List.of(), "127.0.0.1", 0, null);
        try {
            int port = server.port();
            String form = "program=" + wq + "&members=2&args=1000000&loss=0";
            assertEquals(403, post(port, form, null, null), "no launch form here yet");
            server.launches(new Launches(List.of(wq), LaunchViewTest::run));
            assertEquals(403, post(port, form, null, null), "without the page's header");
            assertEquals(403, post(port, form, "launch", "http://evil.example"), "from another origin");
            assertEquals(400, post(port, "program=java.lang.Runtime&members=2", "launch", null));
            assertEquals(400, post(port, "program=" + wq + "&members=99", "launch", null));
            assertEquals(400, post(port, "program=" + wq + "&members=2&args=%24%28rm%29", "launch", null));
            assertEquals(200, post(port, form, "launch", "http://127.0.0.1:" + port));
            long deadline = System.currentTimeMillis() + 30_000;
            while (members() < 2 && System.currentTimeMillis() < deadline) {
                Thread.sleep(50);
            }
            assertEquals(2, members(), "two member JVMs run");
        } finally {
            server.close();
        }
        assertEquals(0, members(), "stopping the server killed the members");
        assertFalse(server.launchesForTest().runs().isEmpty());
    }
}
