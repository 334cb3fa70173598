package org.dsmscope.viewer.server;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.dsmscope.monitor.event.HostInfo;
import org.dsmscope.viewer.model.Filter;
import org.dsmscope.viewer.model.Outputs;
import org.dsmscope.viewer.model.Timeline;

/**
 * The JSON answers of the viewer's API other than the window (viewer/README.md "API"): a timeline's description,
 * the details of one event or arrow (seed 002 §4.3: "clicking on any of these bars or any of the message arrows
 * provides information about the type of event"), and search by event type or field value.
 */
final class Api {
    private Api() {
    }

    static Map<String, Object> meta(Timeline tl) {
        synchronized (tl) {
            tl.seal();
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("title", tl.title);
            m.put("source", tl.source);
            m.put("unit", tl.unit);
            m.put("states", tl.states);
            m.put("arrowKinds", Timeline.ARROW_KINDS);
            List<Object> kinds = new ArrayList<>();
            for (int k = 0; k < tl.kinds.length; k++) {
                Timeline.Kind kd = tl.kinds[k];
                if (kd != null) {
                    Map<String, Object> o = new LinkedHashMap<>();
                    o.put("code", k);
                    o.put("name", kd.name);
                    o.put("level", kd.level);
                    o.put("fields", kd.fields);
                    o.put("draw", kd.draw.name().toLowerCase(Locale.ROOT));
                    kinds.add(o);
                }
            }
            m.put("kinds", kinds);
            List<Object> lanes = new ArrayList<>();
            int hosts = 0;
            for (Timeline.Lane l : tl.lanes) {
                hosts += l.hostInfo != null ? 1 : 0;
                Map<String, Object> o = new LinkedHashMap<>();
                o.put("name", l.name);
                o.put("host", l.host);
                o.put("hostInfo", hostInfo(l.hostInfo));
                lanes.add(extent(l, o));
            }
            m.put("lanes", lanes);
            m.put("hosts", hosts);
            m.put("end", tl.end());
            m.put("origin", tl.origin);
            m.put("events", tl.events());
            m.put("arrows", tl.arrows());
            m.put("version", tl.version());
            m.put("damage", tl.damage);
            m.put("notes", tl.notes);
            return m;
        }
    }

    /**
     * The push channel's update of a live input (viewer/README.md "Push channel"): the description's parts that
     * grow (end, counts, version, each lane's extent and totals, damage, how many notes and known hosts), without
     * the kinds, names and hosts that {@code /api/meta} gives: the page fetches those only when the lanes, hosts,
     * damage or notes changed.
     */
    static Map<String, Object> update(int input, Timeline tl) {
        synchronized (tl) {
            tl.seal();
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("kind", "update");
            m.put("input", input);
            m.put("version", tl.version());
            m.put("end", tl.end());
            m.put("events", tl.events());
            m.put("arrows", tl.arrows());
            int hosts = 0;
            List<Object> lanes = new ArrayList<>();
            for (Timeline.Lane l : tl.lanes) {
                hosts += l.hostInfo != null ? 1 : 0;
                lanes.add(extent(l, new LinkedHashMap<>()));
            }
            m.put("lanes", lanes);
            m.put("hosts", hosts);
            m.put("damage", tl.damage);
            m.put("notes", tl.notes.size());
            return m;
        }
    }

    /** A lane's extent and per-state totals into {@code o}. */
    private static Map<String, Object> extent(Timeline.Lane l, Map<String, Object> o) {
        o.put("start", l.start <= l.end ? l.start : 0);
        o.put("end", l.start <= l.end ? l.end : 0);
        o.put("totals", l.totals == null ? null : l.totals.clone()); // written after the timeline's lock
        return o;
    }

    /** A lane's host as JSON: every field "unknown" (cores 0) where the input does not say. */
    private static Map<String, Object> hostInfo(HostInfo h) {
        HostInfo k = h != null ? h : new HostInfo(null, null, null, 0, null);
        Map<String, Object> o = new LinkedHashMap<>();
        o.put("host", k.host);
        o.put("arch", k.arch);
        o.put("os", k.os);
        o.put("cores", k.cores);
        o.put("jvm", k.jvm);
        return o;
    }

    /**
     * The output view's answer: per process its latest {@code limit} lines at or before {@code at}, or
     * {@code available: false} and why for an input without output (a replayed trace set).
     */
    static Map<String, Object> output(Timeline tl, Outputs out, long at, int limit) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("available", out != null);
        if (out == null) {
            m.put("note", "a replayed trace set has no standard output: only DSM runs (recordings, live runs) capture"
                    + " their members' output");
            m.put("processes", List.of());
            return m;
        }
        synchronized (tl) {
            m.put("lines", out.size());
            m.put("processes", out.latest(tl, at, Math.max(0, Math.min(limit, 10_000))));
        }
        return m;
    }

    static Map<String, Object> event(Timeline tl, int id) {
        synchronized (tl) {
            if (id < 0 || id >= tl.events()) {
                throw new IllegalArgumentException("no event " + id);
            }
            Timeline.Kind k = tl.kinds[tl.kindOf(id)];
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("id", id);
            m.put("type", k.name);
            m.put("level", k.level);
            m.put("lane", tl.laneOf(id));
            m.put("process", tl.lane(tl.laneOf(id)).name);
            m.put("time", tl.time(id));
            m.put("duration", tl.duration(id));
            int peer = tl.peerOf(id);
            if (peer != Integer.MIN_VALUE) {
                m.put("peer", peer);
            }
            Map<String, Object> f = new LinkedHashMap<>();
            for (int i = 0; i < 5; i++) {
                if (!"-".equals(k.fields[i])) {
                    f.put(k.fields[i], tl.field(id, i));
                }
            }
            m.put("fields", f);
            return m;
        }
    }

    static Map<String, Object> arrow(Timeline tl, int id) {
        synchronized (tl) {
            if (id < 0 || id >= tl.arrows()) {
                throw new IllegalArgumentException("no arrow " + id);
            }
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("id", id);
            int kind = tl.arrowKind(id);
            m.put("kind", Timeline.ARROW_KINDS[kind]);
            m.put("from", tl.lane(tl.arrowFromLane(id)).name);
            m.put("fromTime", tl.arrowFrom(id));
            m.put("to", tl.lane(tl.arrowToLane(id)).name);
            m.put("toTime", tl.arrowTo(id));
            String keyName = kind == Timeline.MESSAGE ? "context" : kind == Timeline.SYNC ? "eventcount" : "address";
            m.put(keyName, kind >= Timeline.LOCK ? "0x" + Long.toHexString(tl.arrowKey(id)) : tl.arrowKey(id));
            if (kind == Timeline.MESSAGE && tl.arrowType(id) >= 0 && tl.arrowType(id) < 3) {
                m.put("messageType", Filter.MESSAGE_TYPES[tl.arrowType(id)]);
            }
            if (tl.arrowSrc(id) >= 0) {
                m.put("source", event(tl, tl.arrowSrc(id)));
            }
            if (tl.arrowDst(id) >= 0) {
                m.put("destination", event(tl, tl.arrowDst(id)));
            }
            return m;
        }
    }

    /**
     * The next (or previous) event after (before) time {@code from} that passes the filter and matches {@code q}:
     * an event type (case-insensitive prefix), {@code field=value}, or a number equal to any field.
     */
    static Map<String, Object> search(Timeline tl, String q, long from, boolean next, Filter f) {
        synchronized (tl) {
            tl.seal();
            String query = q.strip().toLowerCase(Locale.ROOT);
            String field = null;
            Long value = null;
            int eq = query.indexOf('=');
            if (eq > 0) {
                field = query.substring(0, eq).strip();
                value = parse(query.substring(eq + 1).strip(), q);
            } else if (!query.isEmpty() && (Character.isDigit(query.charAt(0)) || query.charAt(0) == '-')) {
                value = parse(query, q);
            }
            int n = tl.events();
            int k = next ? tl.lowerBound(from + 1) : tl.lowerBound(from) - 1;
            int matches = 0;
            int found = -1;
            for (int pos = 0; pos < n; pos++) {
                int id = tl.ordered(pos);
                if (matches(tl, id, query, field, value) && f.keepsEvent(tl, id)) {
                    matches++;
                }
            }
            for (; k >= 0 && k < n; k += next ? 1 : -1) {
                int id = tl.ordered(k);
                if (matches(tl, id, query, field, value) && f.keepsEvent(tl, id)) {
                    found = id;
                    break;
                }
            }
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("matches", matches);
            m.put("id", found);
            if (found >= 0) {
                m.put("time", tl.time(found));
                m.put("event", event(tl, found));
            }
            return m;
        }
    }

    private static Long parse(String s, String q) {
        try {
            return Long.decode(s);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("search '" + q + "': not a number: '" + s + "'");
        }
    }

    private static boolean matches(Timeline tl, int id, String query, String field, Long value) {
        Timeline.Kind k = tl.kinds[tl.kindOf(id)];
        if (field != null) {
            int f = k.field(field);
            return f >= 0 && tl.field(id, f) == value;
        }
        if (value != null) {
            for (int i = 0; i < 5; i++) {
                if (!"-".equals(k.fields[i]) && tl.field(id, i) == value) {
                    return true;
                }
            }
            return false;
        }
        return !query.isEmpty() && k.name.toLowerCase(Locale.ROOT).startsWith(query);
    }
}
