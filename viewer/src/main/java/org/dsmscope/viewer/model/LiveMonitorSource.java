package org.dsmscope.viewer.model;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.dsmscope.monitor.event.EventBuffer;
import org.dsmscope.monitor.event.EventType;
import org.dsmscope.monitor.event.HostInfo;
import org.dsmscope.monitor.route.LiveClient;

/**
 * A running {@code dsm run --live PORT} as a growing timeline (seed 002 §4.3: "display trace information as the
 * program runs"). The stream's reader (a thread of its own) parses each "dsmscope-live 1" line with Jackson's
 * streaming parser (no tree per line) into a pending batch of primitive arrays, under a lock that only that batch's
 * swap shares: it never waits for the page. The page's requests ({@link #timeline}, {@link #outputs},
 * {@link #tables}) first move the pending batch into the timeline under the timeline's monitor, with the same states
 * and message arrows as a recording ({@link MonitorSource.Builder}); the time indexes, the per-process times and
 * synchronization arrows ({@link LiveSummary}, {@code monitor summary}'s counting) and the transport tables
 * ({@link TransportIndex}) grow by the new events only. Events carry the aligned time {@code ta} once the stream has
 * it. The page switches event classes with the stream's {@code levels} command. The reader signals the push
 * channel ({@link #onArrival}) when the pending batch stops being empty: once per batch taken, not per line.
 */
public final class LiveMonitorSource implements Source, org.dsmscope.viewer.server.ViewServer.LiveControl {
    private static final JsonFactory JSON = new JsonFactory();
    private static final EventType[] TYPES = EventType.values();
    private static final char[][] TYPE_NAMES = new char[TYPES.length][];
    private static final char[] EVENT = "event".toCharArray();

    static {
        for (int i = 0; i < TYPES.length; i++) {
            TYPE_NAMES[i] = TYPES[i].seedName().toCharArray();
        }
    }

    private final LiveClient client;
    private final String where;
    private final Timeline tl;
    private final MonitorSource.Builder build;
    private final TreeMap<Integer, String> names = new TreeMap<>();
    private final Outputs outputs = new Outputs();
    private final LiveSummary summary = new LiveSummary();

    /** Guards {@link #pending} and {@link #notices}, the reader's side; never held while the timeline is. */
    private final Object lock = new Object();
    private EventBuffer pending = new EventBuffer(4096);
    private List<Object[]> notices = new ArrayList<>();
    /** The other batch, applied and emptied (under the timeline's monitor). */
    private EventBuffer spare = new EventBuffer(4096);
    private List<Object[]> spareNotices = new ArrayList<>();
    /** Told when the pending batch stops being empty (the push channel); a no-op until one asks. */
    private volatile Runnable arrival = () -> { };

    // the line being parsed (reader thread only)
    private final String[] argName = new String[8];
    private final long[] argValue = new long[8];
    private final long[] fields = new long[5];
    private final Map<String, String> text = new java.util.HashMap<>();

    private LiveMonitorSource(LiveClient client, String where) {
        this.client = client;
        this.where = where;
        this.tl = new Timeline("live " + where, "live", "ns", MonitorSource.STATES, MonitorSource.kinds());
        this.build = new MonitorSource.Builder(tl);
    }

    /** Connects to a live run on {@code host:port}, waiting up to {@code waitMillis} for it to listen. */
    public static LiveMonitorSource connect(String host, int port, long waitMillis)
            throws IOException, InterruptedException {
        LiveClient c = LiveClient.connect(host, port, waitMillis);
        LiveMonitorSource s = new LiveMonitorSource(c, c.where());
        JsonParser p = c.parser(JSON);
        Thread reader = new Thread(() -> s.readAll(p), "dsmscope-view-live");
        reader.setDaemon(true);
        reader.start();
        return s;
    }

    /** A source fed by {@link #read} instead of a connection (tests). */
    static LiveMonitorSource detached(String where) {
        return new LiveMonitorSource(null, where);
    }

    private void readAll(JsonParser p) {
        try {
            read(p);
        } catch (IOException e) {
            tl.damage = "live stream broke off: " + e.getMessage();
        }
    }

    /** Reads the stream's lines from {@code p} to its end into the pending batch. */
    void read(JsonParser p) throws IOException {
        JsonToken tok;
        while ((tok = p.nextToken()) != null) {
            if (tok != JsonToken.START_OBJECT) {
                throw new IOException(where + ": line " + p.currentLocation().getLineNr() + ": not a JSON object");
            }
            line(p);
        }
    }

    /** One line, from after its '{' to its '}'. */
    private void line(JsonParser p) throws IOException {
        boolean event = false, hasTa = false;
        long t = 0, ta = 0;
        int proc = 0, peer = -1, args = 0;
        EventType type = null;
        text.clear();
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            String name = p.currentName();
            JsonToken v = p.nextToken();
            switch (name) {
                case "kind":
                    event = p.currentToken() == JsonToken.VALUE_STRING && equal(p, EVENT);
                    if (!event) {
                        text.put(name, p.getText());
                    }
                    break;
                case "t":
                    t = p.getLongValue();
                    break;
                case "ta":
                    ta = p.getLongValue();
                    hasTa = true;
                    break;
                case "proc":
                    proc = p.getIntValue();
                    break;
                case "peer":
                    peer = p.getIntValue();
                    break;
                case "type":
                    type = type(p);
                    break;
                case "args":
                    while (v == JsonToken.START_OBJECT && p.nextToken() == JsonToken.FIELD_NAME) {
                        String a = p.currentName();
                        p.nextToken();
                        if (args < argName.length) {
                            argName[args] = a;
                            argValue[args++] = p.getLongValue();
                        }
                    }
                    break;
                default:
                    if (v == JsonToken.START_OBJECT || v == JsonToken.START_ARRAY) {
                        p.skipChildren();
                    } else if (!event) {
                        text.put(name, p.getText());
                    }
            }
        }
        long time = hasTa ? ta : t;
        if (event) {
            if (type != null) {
                event(type, time, proc, peer, args);
            }
            return;
        }
        String kind = text.getOrDefault("kind", "");
        boolean first;
        synchronized (lock) {
            first = pending.size() == 0 && notices.isEmpty();
            switch (kind) {
                case "process":
                    notices.add(new Object[] {pending.size(), kind, proc, text.get("name")});
                    break;
                case "host":
                    notices.add(new Object[] {pending.size(), kind, proc, new HostInfo(text.get("host"),
                            text.get("arch"), text.get("os"), (int) number("cores"), text.get("jvm"))});
                    break;
                case "output":
                    notices.add(new Object[] {pending.size(), kind, proc, time,
                            "err".equals(text.get("stream")) ? 2 : 1, text.getOrDefault("line", "")});
                    break;
                case "end":
                    notices.add(new Object[] {pending.size(), kind, (int) number("status")});
                    break;
                case "dropped":
                    tl.damage = "the viewer was too slow: " + number("total") + " events dropped";
                    break;
                default:
                    first = false;
                    break; // hello, levels, error: nothing to show
            }
        }
        if (first) {
            arrival.run();
        }
    }

    private long number(String field) {
        try {
            return Long.parseLong(text.getOrDefault(field, "0"));
        } catch (NumberFormatException e) {
            return 0;
        }
    }

    private void event(EventType type, long time, int proc, int peer, int args) {
        long[] f = fields;
        java.util.Arrays.fill(f, 0);
        for (int i = 0; i < 5; i++) {
            String field = type.fields[i];
            for (int k = 0; k < args && !"-".equals(field); k++) {
                if (field.equals(argName[k])) {
                    f[i] = argValue[k];
                    break;
                }
            }
        }
        boolean first;
        synchronized (lock) {
            first = pending.size() == 0 && notices.isEmpty();
            if (pending.full()) {
                EventBuffer bigger = new EventBuffer(pending.capacity() * 2);
                for (int i = 0; i < pending.size(); i++) {
                    bigger.addFrom(pending, i);
                }
                pending = bigger;
            }
            pending.add(time, proc, type.code, peer, f[0], f[1], f[2], f[3], f[4]);
        }
        if (first) {
            arrival.run();
        }
    }

    /** Whether the current string value is {@code s}, without making a string of it. */
    private static boolean equal(JsonParser p, char[] s) throws IOException {
        int len = p.getTextLength();
        if (len != s.length) {
            return false;
        }
        char[] buf = p.getTextCharacters();
        int off = p.getTextOffset();
        for (int i = 0; i < len; i++) {
            if (buf[off + i] != s[i]) {
                return false;
            }
        }
        return true;
    }

    private static EventType type(JsonParser p) throws IOException {
        if (p.currentToken() != JsonToken.VALUE_STRING) {
            return null;
        }
        for (int i = 0; i < TYPES.length; i++) {
            if (equal(p, TYPE_NAMES[i])) {
                return TYPES[i];
            }
        }
        return null;
    }

    /**
     * Moves the events and notices read since the last call into the timeline (under its monitor; the reader only
     * waits for the swap of the two batches) and brings the indexes, the summary and the transport index up to date.
     */
    private void catchUp() {
        synchronized (tl) {
            EventBuffer b;
            List<Object[]> ns;
            synchronized (lock) {
                if (pending.size() == 0 && notices.isEmpty()) {
                    return;
                }
                b = pending;
                ns = notices;
                pending = spare;
                notices = spareNotices;
            }
            int k = 0;
            for (int i = 0; i < b.size(); i++) {
                for (; k < ns.size() && (Integer) ns.get(k)[0] <= i; k++) {
                    notice(ns.get(k));
                }
                add(b, i);
            }
            for (; k < ns.size(); k++) {
                notice(ns.get(k));
            }
            b.clear();
            ns.clear();
            spare = b;
            spareNotices = ns;
            tl.seal();
            build.transport(names.keySet());
        }
    }

    private void add(EventBuffer b, int i) {
        long time = b.time[i];
        if (tl.events() == 0) {
            tl.origin = time;
        }
        String name = names.get(b.proc[i]);
        build.add(b, i, time, name);
        summary.add(b, i, time, name, build::syncArrow);
    }

    private void notice(Object[] n) {
        String kind = (String) n[1];
        if (kind.equals("process")) {
            names.put((Integer) n[2], (String) n[3]);
            build.lane((Integer) n[2], (String) n[3]);
        } else if (kind.equals("host")) {
            int p = (Integer) n[2];
            build.lane(p, names.get(p));
            build.host(p, (HostInfo) n[3]);
        } else if (kind.equals("output")) {
            int p = (Integer) n[2];
            outputs.add(build.lane(p, names.get(p)), (Long) n[3], (Integer) n[4], (String) n[5]);
        } else if (kind.equals("end")) {
            tl.notes.add("the run ended (status " + n[2] + ")");
        }
    }

    @Override
    public void onArrival(Runnable signal) {
        arrival = signal;
        signal.run(); // whatever is pending already
    }

    @Override
    public boolean live() {
        return true;
    }

    @Override
    public Timeline timeline() {
        catchUp();
        return tl;
    }

    @Override
    public Outputs outputs() {
        catchUp();
        return outputs;
    }

    @Override
    public Map<String, Object> tables(long t0, long t1) {
        catchUp();
        Map<String, Object> out = new LinkedHashMap<>();
        synchronized (tl) {
            for (Map.Entry<Integer, String> e : names.entrySet()) {
                var pt = summary.times.get(e.getKey());
                if (pt != null) {
                    pt.name = e.getValue();
                }
            }
            out.put("processes", MonitorSource.processTimes(summary.times.values()));
            TransportIndex transport = build.transport(names.keySet());
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
            if (client != null) {
                client.close();
            }
        } catch (IOException e) {
            // closing a connection the run may already have closed
        }
    }
}
