package org.dsmscope.viewer.model;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;
import org.dsmscope.monitor.analysis.EventcountChecker;
import org.dsmscope.monitor.analysis.Summary;
import org.dsmscope.monitor.event.EventBuffer;
import org.dsmscope.monitor.event.EventType;
import org.dsmscope.monitor.event.HostInfo;
import org.dsmscope.monitor.route.LiveClient;

/**
 * A running {@code dsm run --live PORT} as a growing timeline (seed 002 §4.3: "display trace information as the
 * program runs"): the monitor's {@link LiveClient} reads the "dsmscope-live 1" stream on a thread of its own, and
 * each event goes into the timeline at once (aligned time {@code ta} when the stream has it), with the same
 * states and message arrows as a recording ({@link MonitorSource#add}). Synchronization arrows and per-process
 * utilization come from {@link Summary#ofEvents} over the events so far, recomputed at most every 500 ms: the same
 * computation as {@code monitor summary}; the transport tables (run and window) from a {@link TransportIndex} of
 * the events so far, rebuilt with the summary. The page switches event classes with the
 * stream's {@code levels} command.
 */
public final class LiveMonitorSource implements Source, org.dsmscope.viewer.server.ViewServer.LiveControl {
    private static final Map<String, EventType> BY_NAME = new HashMap<>();

    static {
        for (EventType t : EventType.values()) {
            BY_NAME.put(t.seedName(), t);
        }
    }

    private final LiveClient client;
    private final Timeline tl;
    private final MonitorSource.Builder build;
    private final EventBuffer[] all = {new EventBuffer(4096)};
    private final TreeMap<Integer, String> names = new TreeMap<>();
    private final Thread reader;
    private final Outputs outputs = new Outputs();
    private Summary summary;
    private TransportIndex transport;
    private long summaryVersion = -1;
    private long summaryAt;

    private LiveMonitorSource(LiveClient client, String where) {
        this.client = client;
        this.tl = new Timeline("live " + where, "live", "ns", MonitorSource.STATES, MonitorSource.kinds());
        tl.bulk(false);
        this.build = new MonitorSource.Builder(tl);
        this.reader = new Thread(this::read, "dsmscope-view-live");
        reader.setDaemon(true);
    }

    /** Connects to a live run on {@code host:port}, waiting up to {@code waitMillis} for it to listen. */
    public static LiveMonitorSource connect(String host, int port, long waitMillis)
            throws IOException, InterruptedException {
        LiveMonitorSource s = new LiveMonitorSource(LiveClient.connect(host, port, waitMillis), host + ":" + port);
        s.reader.start();
        return s;
    }

    private void read() {
        try {
            JsonNode n;
            while ((n = client.next()) != null) {
                String kind = n.path("kind").asText();
                if (kind.equals("process")) {
                    synchronized (tl) {
                        names.put(n.path("proc").asInt(), n.path("name").asText());
                        build.lane(n.path("proc").asInt(), n.path("name").asText());
                    }
                } else if (kind.equals("event")) {
                    event(n);
                } else if (kind.equals("host")) {
                    synchronized (tl) {
                        int p = n.path("proc").asInt();
                        build.lane(p, names.get(p));
                        build.host(p, new HostInfo(n.path("host").asText(), n.path("arch").asText(),
                                n.path("os").asText(), n.path("cores").asInt(), n.path("jvm").asText()));
                    }
                } else if (kind.equals("output")) {
                    int p = n.path("proc").asInt();
                    long t = n.has("ta") ? n.path("ta").asLong() : n.path("t").asLong();
                    int lane;
                    synchronized (tl) {
                        lane = build.lane(p, names.get(p));
                    }
                    outputs.add(lane, t, "err".equals(n.path("stream").asText()) ? 2 : 1, n.path("line").asText());
                } else if (kind.equals("end")) {
                    synchronized (tl) {
                        tl.notes.add("the run ended (status " + n.path("status").asInt() + ")");
                    }
                } else if (kind.equals("dropped")) {
                    tl.damage = "the viewer was too slow: " + n.path("total").asLong() + " events dropped";
                }
            }
        } catch (IOException e) {
            tl.damage = "live stream broke off: " + e.getMessage();
        }
    }

    private void event(JsonNode n) {
        EventType t = BY_NAME.get(n.path("type").asText());
        if (t == null) {
            return;
        }
        long time = n.has("ta") ? n.path("ta").asLong() : n.path("t").asLong();
        long[] f = new long[5];
        JsonNode args = n.path("args");
        for (int i = 0; i < 5; i++) {
            if (!"-".equals(t.fields[i])) {
                f[i] = args.path(t.fields[i]).asLong();
            }
        }
        int proc = n.path("proc").asInt();
        synchronized (tl) {
            if (tl.events() == 0) {
                tl.origin = time;
            }
            EventBuffer b = all[0];
            if (b.full()) {
                EventBuffer bigger = new EventBuffer(b.capacity() * 2);
                for (int i = 0; i < b.size(); i++) {
                    bigger.addFrom(b, i);
                }
                all[0] = bigger;
                b = bigger;
            }
            b.add(time, proc, t.code, n.path("peer").asInt(-1), f[0], f[1], f[2], f[3], f[4]);
            build.add(b, b.size() - 1, time, names.get(proc));
        }
    }


    /**
     * The summary and the transport index of the events so far, recomputed at most every 500 ms (each costs a pass
     * over all events, under the timeline's monitor that the stream's reader also needs); adds the new
     * synchronization arrows.
     */
    private Summary summary() {
        EventBuffer copy;
        TreeMap<Integer, String> procs;
        long version;
        synchronized (tl) {
            long now = System.nanoTime();
            if (summary != null && (summaryVersion == tl.version() || now - summaryAt <= 500_000_000L)) {
                return summary;
            }
            copy = all[0].copy();
            procs = new TreeMap<>(names);
            version = tl.version();
            summaryAt = now;
        }
        // counted outside the monitor: the stream's reader goes on adding events meanwhile
        Summary s = Summary.ofEvents(Path.of(tl.title), procs, copy, EventcountChecker.DEFAULT_THRESHOLD);
        synchronized (tl) {
            summary = s;
            summaryVersion = version;
            build.syncArrows(s.arrows);
            transport = build.transport(procs.keySet());
            return s;
        }
    }

    @Override
    public Timeline timeline() {
        return tl;
    }

    @Override
    public Outputs outputs() {
        return outputs;
    }

    @Override
    public Map<String, Object> tables(long t0, long t1) {
        Summary s = summary();
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("processes", MonitorSource.processTimes(s));
        synchronized (tl) {
            out.put("transportRun", transport.windowJson(Long.MIN_VALUE, Long.MAX_VALUE));
            out.put("transportWindow", transport.windowJson(t0, t1));
        }
        return out;
    }

    @Override
    public void levels(String list) throws IOException {
        client.command("levels " + list);
    }

    @Override
    public void close() {
        try {
            client.close();
        } catch (IOException e) {
            // closing a connection the run may already have closed
        }
    }
}
