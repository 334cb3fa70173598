package org.dsmscope.dsm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.dsmscope.monitor.Router;
import org.dsmscope.monitor.event.Level;
import org.dsmscope.monitor.route.RouteServer;
import org.dsmscope.monitor.route.SocketSink;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The run-time command of {@code dsmscope dsm run --control}: switching recorded levels in every member. */
class LauncherControlTest {

    private static void waitForMask(Router r, int mask) throws InterruptedException {
        long deadline = System.currentTimeMillis() + 10_000;
        while (r.enabledMask() != mask && System.currentTimeMillis() < deadline) {
            Thread.sleep(5);
        }
    }

    @Test
    @Timeout(30)
    void levelsCommand_switchesConnectedMembers_andMembersThatConnectLater() throws Exception {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        PrintStream err = new PrintStream(bytes, true, StandardCharsets.UTF_8);
        Router early = new Router();
        Router late = new Router();
        try (RouteServer route = new RouteServer(); SocketSink s1 = new SocketSink(route.port(), early)) {
            route.addSink(new org.dsmscope.monitor.event.MemorySink()); // the recorder: members emit what it wants
            Launcher.control("levels program,transport", route, err);
            int mask = Level.PROGRAM.bit() | Level.TRANSPORT.bit();
            assertEquals(mask, route.mask());
            waitForMask(early, mask);
            assertEquals(mask, early.enabledMask());
            try (SocketSink s2 = new SocketSink(route.port(), late)) {
                waitForMask(late, mask);
                assertEquals(mask, late.enabledMask());
            }
        } finally {
            early.close();
            late.close();
        }
        assertTrue(bytes.toString(StandardCharsets.UTF_8).contains("recording levels program,transport"));
    }

    @Test
    void badCommands_areReported_andChangeNothing() throws Exception {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        PrintStream err = new PrintStream(bytes, true, StandardCharsets.UTF_8);
        try (RouteServer route = new RouteServer()) {
            Launcher.control("levels tcp", route, err);
            Launcher.control("stop", route, err);
            Launcher.control("   ", route, err);
            assertEquals(Level.ALL, route.mask());
        }
        String text = bytes.toString(StandardCharsets.UTF_8);
        assertTrue(text.contains("unknown monitoring level 'tcp'"), text);
        assertTrue(text.contains("unknown command 'stop'"), text);
    }
}
