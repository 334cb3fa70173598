package org.dsmscope.monitor.route;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** {@code monitor watch}'s roll-up per transport path, fed stream lines directly. */
class LiveWatchTest {
    private static final ObjectMapper MAPPER = new ObjectMapper();

    private static void feed(LiveWatch w, String line) throws Exception {
        w.accept(MAPPER.readTree(line), line, System.err);
    }

    private static String event(int proc, String type, int peer, int seqno) {
        return "{\"kind\":\"event\",\"t\":" + (1_000_000 + seqno) + ",\"proc\":" + proc + ",\"type\":\"" + type
                + "\",\"level\":\"transport\",\"peer\":" + peer + ",\"args\":{\"seqno\":" + seqno
                + ",\"frag\":-1,\"proto\":1,\"bytes\":100}}";
    }

    private static LiveWatch watch(ByteArrayOutputStream bytes, boolean json) throws Exception {
        LiveWatch w = new LiveWatch(new PrintStream(bytes, true, StandardCharsets.UTF_8), json, 0);
        for (int p = 0; p < 3; p++) {
            feed(w, "{\"kind\":\"process\",\"proc\":" + p + ",\"name\":\"m" + p + "\"}");
        }
        return w;
    }

    /**
     * m0 multicasts two packets to m1 and m2, which receive both: each path m0->m1, m0->m2 shows 2 sent and 2
     * received (the multicast counted once per other process), never more received than sent, no "->all" path.
     */
    @Test
    void multicastCountsOnEveryReceiversPath_soNoPathReceivesMoreThanWasSent() throws Exception {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        LiveWatch w = watch(bytes, false);
        for (int s = 1; s <= 2; s++) {
            feed(w, event(0, "Frag_Send", -1, s));
            feed(w, event(1, "Frag_Recv", 0, s));
            feed(w, event(2, "Frag_Recv", 0, s));
        }
        w.rollup();
        String text = bytes.toString(StandardCharsets.UTF_8);
        assertTrue(text.matches("(?s).*m0->m1 +2 +2 +0 +0 +0 +0\n.*"), text);
        assertTrue(text.matches("(?s).*m0->m2 +2 +2 +0 +0 +0 +0\n.*"), text);
        assertFalse(text.contains("->all"), text);
        assertTrue(text.contains("recv = every copy that arrived"), "the legend says what the columns count: " + text);

        ByteArrayOutputStream jbytes = new ByteArrayOutputStream();
        LiveWatch j = watch(jbytes, true);
        feed(j, event(0, "Frag_Send", -1, 1));
        feed(j, event(2, "Frag_Recv", 0, 1));
        j.rollup();
        String[] lines = jbytes.toString(StandardCharsets.UTF_8).split("\n");
        JsonNode rollup = MAPPER.readTree(lines[lines.length - 1]);
        assertEquals("rollup", rollup.path("kind").asText());
        assertEquals(2, rollup.path("paths").size(), rollup.toString());
        for (JsonNode p : rollup.path("paths")) {
            assertTrue(p.path("received").asLong() <= p.path("sent").asLong(), p.toString());
        }
    }

    @Test
    void hostsAndPrintedLines_areShownAsText() throws Exception {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        LiveWatch w = watch(bytes, false);
        feed(w, "{\"kind\":\"host\",\"proc\":1,\"host\":\"node1\",\"arch\":\"aarch64\",\"os\":\"Linux 6.1\","
                + "\"cores\":8,\"jvm\":\"OpenJDK 17\"}");
        feed(w, event(0, "Frag_Send", 1, 1));
        feed(w, "{\"kind\":\"output\",\"t\":1500001,\"proc\":1,\"stream\":\"err\",\"line\":\"result ok\"}");
        String text = bytes.toString(StandardCharsets.UTF_8);
        assertTrue(text.contains("-- m1 runs on node1 (aarch64, Linux 6.1, 8 cores, OpenJDK 17)"), text);
        assertTrue(text.contains("  +0.000500 m1   err| result ok"), text);
    }
}
