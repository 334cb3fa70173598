package org.dsmscope.dsm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.dsmscope.monitor.event.EventBuffer;
import org.dsmscope.monitor.event.EventType;
import org.dsmscope.monitor.record.RecordingReader;
import org.dsmscope.monitor.route.LiveClient;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * End to end: members as separate JVMs, recorded and watched live at once; the watcher sees every Advance the
 * program made (as the recording has them), while a viewer that never reads and one that vanishes hold up nothing.
 */
class LiveRunTest {
    @TempDir
    Path dir;

    @Test
    @Timeout(240)
    void watcherSeesEveryAdvance_whileSlowAndVanishingViewersHoldUpNothing() throws Exception {
        Launcher.Options o = new Launcher.Options();
        o.members = 3;
        o.record = dir.resolve("live.dsmrec");
        o.livePort = 0;
        o.liveQueue = 64; // small: the viewer that never reads overflows it
        o.timeoutSeconds = 180;
        o.opTimeoutMillis = 60_000;
        o.command = List.of(AdvanceApp.class.getName(), "20");
        List<String> seen = Collections.synchronizedList(new ArrayList<>());
        List<String> kinds = Collections.synchronizedList(new ArrayList<>());
        List<Object> keep = new ArrayList<>();
        Thread[] watcher = new Thread[1];
        long[] watcherDropped = {-1};
        o.liveStarted = port -> {
            try {
                Socket slow = new Socket("127.0.0.1", port); // connects and never reads
                keep.add(slow);
                LiveClient.connect("127.0.0.1", port, 10_000).close(); // connects and vanishes
                LiveClient c = LiveClient.connect("127.0.0.1", port, 10_000);
                c.command("levels program");
                watcher[0] = new Thread(() -> {
                    try (c) {
                        for (JsonNode n = c.next(); n != null; n = c.next()) {
                            kinds.add(n.path("kind").asText());
                            if ("end".equals(n.path("kind").asText())) {
                                watcherDropped[0] = n.path("dropped").asLong();
                            }
                            if ("Advance".equals(n.path("type").asText())) {
                                seen.add(n.path("proc").asInt() + ":" + n.path("args").path("event").asLong()
                                        + ":" + n.path("args").path("value").asLong());
                            }
                        }
                    } catch (Exception e) {
                        kinds.add("failed: " + e);
                    }
                });
                watcher[0].start();
                // the program starts only once the watcher's classes are in force, so it misses nothing
                long deadline = System.currentTimeMillis() + 10_000;
                while (!kinds.contains("levels") && System.currentTimeMillis() < deadline) {
                    Thread.sleep(10);
                }
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        };
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int rc = Launcher.run(o, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        String errText = err.toString(StandardCharsets.UTF_8);
        assertEquals(0, rc, errText);
        watcher[0].join(30_000);
        for (Object k : keep) {
            ((Socket) k).close();
        }
        List<String> recorded = new ArrayList<>();
        EventBuffer all = RecordingReader.readAll(o.record);
        for (int i = 0; i < all.size(); i++) {
            if (all.type[i] == EventType.ADVANCE.code) {
                recorded.add(all.proc[i] + ":" + all.a[i] + ":" + all.b[i]);
            }
        }
        assertEquals(3 * 20, recorded.size());
        Collections.sort(recorded);
        List<String> live = new ArrayList<>(seen);
        Collections.sort(live);
        assertTrue(kinds.contains("end"), kinds.toString());
        if (watcherDropped[0] == 0) {
            assertEquals(recorded, live, "the watcher saw exactly the recorded Advance events");
        } else {
            // The queue is small (64) so that the never-reading viewer overflows; on a loaded machine the watcher
            // can overflow it too. Then it was told so, and what it saw is still exactly what was recorded.
            assertTrue(watcherDropped[0] > 0, "the watcher's end line carries its dropped count");
            assertTrue(recorded.containsAll(live) && live.size() <= recorded.size(), live + " vs " + recorded);
        }
        assertTrue(errText.contains("events dropped for them"), errText); // the viewer that never read
    }
}
