package org.dsmscope.monitor.route;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Iterator;
import java.util.Map;
import java.util.TreeMap;

/**
 * {@code dsmscope monitor watch}: prints the events of a live stream as they arrive (text, or the stream's JSON
 * lines with {@code --json}) and every few seconds a roll-up: events per process and level, and per transport
 * path (sender → receiver) packets sent, received, retransmitted, NACKed, duplicated and discarded (seed 002
 * §4.1.3 as it accumulates). Commands ({@code levels LIST}) can be forwarded to the stream while it runs.
 */
public final class LiveWatch {
    private static final ObjectMapper MAPPER = new ObjectMapper();
    private final PrintStream out;
    private final boolean json;
    private final long everyNanos;
    private final Map<Integer, String> names = new TreeMap<>();
    private final Map<Integer, long[]> perProc = new TreeMap<>();
    private final Map<Long, long[]> perPath = new TreeMap<>();
    private long events;
    private long dropped;
    private long base = Long.MIN_VALUE;
    private final long start = System.nanoTime();
    private long lastRollup = System.nanoTime();
    private boolean legendShown;

    /** What the path table's columns count (printed above the first one). */
    static final String[] PATH_LEGEND = {
        "paths: sent = first transmissions (a multicast once per other process); recv = every copy that arrived,",
        "retransmitted ones and duplicates included, so recv can reach sent + retrans; members send their events",
        "every 200 ms, so while the run goes on a receiver's events may be counted before its sender's, and",
        "members start emitting a class when the switch reaches them, so a path's first packets may show at one end.",
    };

    /** Prints to {@code out}; a roll-up every {@code everySeconds} (0: only at the end). */
    public LiveWatch(PrintStream out, boolean json, double everySeconds) {
        this.out = out;
        this.json = json;
        this.everyNanos = (long) (everySeconds * 1e9);
    }

    /** Events counted so far. */
    public long events() {
        return events;
    }

    /**
     * Reads the stream to its end; {@code control} (or null) supplies command lines forwarded to the stream on a
     * daemon thread. Returns the run's status from the {@code end} line, or -1 if the stream ended without one.
     */
    public int run(LiveClient c, InputStream control, PrintStream err) throws IOException {
        if (control != null) {
            forward(c, control, err);
        }
        int status = -1;
        for (JsonNode n = c.next(); n != null; n = c.next()) {
            int end = accept(n, c.line(), err);
            status = end >= 0 ? end : status;
            if (everyNanos > 0 && System.nanoTime() - lastRollup >= everyNanos) {
                rollup();
            }
        }
        rollup();
        text(status < 0 ? "stream ended without an end line (the run was stopped)"
                : "run ended with status " + status);
        return status;
    }

    /** Takes one line of the stream (parsed, and as received); returns the run's status on the end line, else -1. */
    int accept(JsonNode n, String line, PrintStream err) {
        int status = -1;
        String kind = n.path("kind").asText();
        if (json) {
            out.println(line);
        }
        switch (kind) {
            case "event":
                event(n);
                break;
            case "process":
                names.put(n.path("proc").asInt(), n.path("name").asText());
                break;
            case "host":
                text(name(n.path("proc").asInt()) + " runs on " + n.path("host").asText() + " ("
                        + n.path("arch").asText() + ", " + n.path("os").asText() + ", " + n.path("cores").asInt()
                        + " cores, " + n.path("jvm").asText() + ")");
                break;
            case "output":
                output(n);
                break;
            case "dropped":
                dropped += n.path("events").asLong();
                text("dropped " + n.path("events").asLong() + " events (this viewer was too slow)");
                break;
            case "levels":
                text("levels now " + n.path("levels").asText());
                break;
            case "error":
                err.println("dsmscope: live stream: " + n.path("message").asText());
                break;
            case "end":
                status = n.path("status").asInt();
                break;
            default:
                break;
        }
        return status;
    }

    private void text(String s) {
        if (!json) {
            out.println("-- " + s);
        }
    }

    private static void forward(LiveClient c, InputStream control, PrintStream err) {
        Thread t = new Thread(() -> {
            try (BufferedReader in = new BufferedReader(new InputStreamReader(control, StandardCharsets.UTF_8))) {
                for (String line = in.readLine(); line != null; line = in.readLine()) {
                    if (!line.isBlank()) {
                        c.command(line);
                    }
                }
            } catch (IOException e) {
                // the stream or the control input closed
            }
        }, "dsmscope-watch-control");
        t.setDaemon(true);
        t.start();
    }

    private String name(int proc) {
        return names.getOrDefault(proc, "p" + proc);
    }

    /** A line a member printed: {@code +seconds m0   out| text} (err| for standard error). */
    private void output(JsonNode n) {
        if (json) {
            return;
        }
        long t = n.has("ta") ? n.path("ta").asLong() : n.path("t").asLong();
        if (base == Long.MIN_VALUE) {
            base = t;
        }
        out.println(String.format("%+11.6f %-4s %s| %s", (t - base) / 1e9, name(n.path("proc").asInt()),
                n.path("stream").asText(), n.path("line").asText()));
    }

    private void event(JsonNode n) {
        events++;
        int proc = n.path("proc").asInt();
        int peer = n.path("peer").asInt();
        String type = n.path("type").asText();
        String level = n.path("level").asText();
        long[] pc = perProc.computeIfAbsent(proc, k -> new long[3]);
        pc["program".equals(level) ? 0 : "message".equals(level) ? 1 : 2]++;
        path(type, proc, peer);
        if (json) {
            return;
        }
        long t = n.has("ta") ? n.path("ta").asLong() : n.path("t").asLong();
        if (base == Long.MIN_VALUE) {
            base = t;
        }
        StringBuilder b = new StringBuilder();
        b.append(String.format("%+11.6f %-4s %-18s", (t - base) / 1e9, name(proc), type));
        if (peer >= 0) {
            b.append(" peer=").append(name(peer));
        }
        for (Iterator<Map.Entry<String, JsonNode>> it = n.path("args").fields(); it.hasNext();) {
            Map.Entry<String, JsonNode> f = it.next();
            b.append(' ').append(f.getKey()).append('=').append(f.getValue().asText());
        }
        out.println(b);
    }

    /**
     * Counts a transport event under its path sender → receiver. A multicast ({@code peer} -1 at the sender) counts
     * as sent on the path to every other process known so far, as the post-mortem summary counts it, so that a
     * path's received packets (counted at each receiver) compare with what was sent to it.
     */
    private void path(String type, int proc, int peer) {
        int col;
        boolean atSender = true;
        switch (type) {
            case "Frag_Send":
                col = 0;
                break;
            case "Frag_Recv":
                col = 1;
                atSender = false;
                break;
            case "Retrans_Send":
                col = 2;
                break;
            case "NACK_Send":
                col = 3;
                atSender = false;
                break;
            case "Duplicate_Frag":
                col = 4;
                atSender = false;
                break;
            case "Packet_Discard":
                col = 5;
                atSender = false;
                break;
            default:
                return;
        }
        if (atSender && peer < 0) {
            for (int other : names.keySet()) {
                if (other != proc) {
                    count(proc, other, col);
                }
            }
            return;
        }
        count(atSender ? proc : peer, atSender ? peer : proc, col);
    }

    private void count(int from, int to, int col) {
        perPath.computeIfAbsent(((long) from << 32) | (to & 0xFFFFFFFFL), k -> new long[6])[col]++;
    }

    /** Prints the roll-up of everything counted so far. */
    void rollup() {
        lastRollup = System.nanoTime();
        double secs = (lastRollup - start) / 1e9;
        if (json) {
            ObjectNode r = MAPPER.createObjectNode().put("kind", "rollup").put("seconds", secs).put("events", events)
                    .put("dropped", dropped);
            ArrayNode ps = r.putArray("processes");
            for (Map.Entry<Integer, long[]> e : perProc.entrySet()) {
                ps.addObject().put("proc", e.getKey()).put("name", name(e.getKey())).put("program", e.getValue()[0])
                        .put("message", e.getValue()[1]).put("transport", e.getValue()[2]);
            }
            ArrayNode paths = r.putArray("paths");
            for (Map.Entry<Long, long[]> e : perPath.entrySet()) {
                long[] v = e.getValue();
                paths.addObject().put("from", (int) (e.getKey() >> 32)).put("to", (int) (long) e.getKey())
                        .put("sent", v[0]).put("received", v[1]).put("retransmitted", v[2]).put("nacks", v[3])
                        .put("duplicates", v[4]).put("discarded", v[5]);
            }
            out.println(r);
            return;
        }
        out.printf("-- %.1f s: %d events, %d dropped%n", secs, events, dropped);
        out.printf("   %-8s %9s %9s %9s%n", "process", "program", "message", "transport");
        for (Map.Entry<Integer, long[]> e : perProc.entrySet()) {
            long[] v = e.getValue();
            out.printf("   %-8s %9d %9d %9d%n", name(e.getKey()), v[0], v[1], v[2]);
        }
        if (!perPath.isEmpty()) {
            if (!legendShown) {
                legendShown = true;
                for (String l : PATH_LEGEND) {
                    out.println("   " + l);
                }
            }
            out.printf("   %-10s %8s %8s %8s %8s %8s %8s%n", "path", "sent", "recv", "retrans", "nacks", "dups",
                    "discard");
            for (Map.Entry<Long, long[]> e : perPath.entrySet()) {
                long[] v = e.getValue();
                int to = (int) (long) e.getKey();
                out.printf("   %-10s %8d %8d %8d %8d %8d %8d%n", name((int) (e.getKey() >> 32)) + "->"
                        + (to < 0 ? "all" : name(to)), v[0], v[1], v[2], v[3], v[4], v[5]);
            }
        }
    }
}
