package org.dsmscope.viewer.model;

import java.util.Map;
import java.util.TreeSet;

/**
 * The view filters of seed 002 §4.4 (segments) and §4.6 (eventcounts), plus message type, process (lane) and level,
 * parsed from a request's parameters ({@code seg=1,2&ec=0&mtype=data,reply&proc=0,3&level=program,message}). An
 * empty filter keeps everything; a segment filter keeps message arrows whose context is one of the segments and
 * events with a {@code seg} field among them; an eventcount filter keeps synchronization arrows and events with an
 * {@code event} field among them.
 */
public final class Filter {
    /** Message type names by code. */
    public static final String[] MESSAGE_TYPES = {"data", "request", "reply"};
    /** Kept segments (null: all). */
    public TreeSet<Long> segments;
    /** Kept eventcounts (null: all). */
    public TreeSet<Long> eventcounts;
    /** Kept lanes (null: all). */
    public TreeSet<Integer> lanes;
    /** Kept levels (null: all). */
    public TreeSet<String> levels;
    /** Bit per kept message type (bit 0 data, 1 request, 2 reply). */
    public int messageTypes = 7;
    /** Arrow kinds shown (bit per {@link Timeline#MESSAGE} ...). */
    public int arrowKinds = 15;

    /** Parses the filter parameters; throws IllegalArgumentException naming a bad one. */
    public static Filter parse(Map<String, String> p) {
        Filter f = new Filter();
        f.segments = longs(p, "seg");
        f.eventcounts = longs(p, "ec");
        TreeSet<Long> l = longs(p, "proc");
        if (l != null) {
            f.lanes = new TreeSet<>();
            for (long v : l) {
                f.lanes.add((int) v);
            }
        }
        String lv = p.get("level");
        if (lv != null && !lv.isBlank()) {
            f.levels = new TreeSet<>();
            for (String s : lv.split(",")) {
                f.levels.add(s.strip());
            }
        }
        String mt = p.get("mtype");
        if ("none".equals(mt)) {
            f.messageTypes = 0;
        } else if (mt != null && !mt.isBlank()) {
            f.messageTypes = 0;
            for (String s : mt.split(",")) {
                int k = java.util.Arrays.asList(MESSAGE_TYPES).indexOf(s.strip());
                if (k < 0) {
                    throw new IllegalArgumentException("mtype: unknown message type '" + s + "' (data, request, reply)");
                }
                f.messageTypes |= 1 << k;
            }
        }
        String ak = p.get("arrows");
        if ("none".equals(ak)) {
            f.arrowKinds = 0;
        } else if (ak != null && !ak.isBlank()) {
            f.arrowKinds = 0;
            for (String s : ak.split(",")) {
                int k = java.util.Arrays.asList(Timeline.ARROW_KINDS).indexOf(s.strip());
                if (k < 0) {
                    throw new IllegalArgumentException("arrows: unknown arrow kind '" + s + "'");
                }
                f.arrowKinds |= 1 << k;
            }
        }
        return f;
    }

    private static TreeSet<Long> longs(Map<String, String> p, String name) {
        String v = p.get(name);
        if (v == null || v.isBlank()) {
            return null;
        }
        TreeSet<Long> out = new TreeSet<>();
        if (v.equals("none")) {
            return out;
        }
        for (String s : v.split(",")) {
            try {
                out.add(Long.parseLong(s.strip()));
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException(name + ": not a number: '" + s + "'");
            }
        }
        return out;
    }

    /** True when event {@code id} of {@code tl} passes the filter. */
    public boolean keepsEvent(Timeline tl, int id) {
        if (lanes != null && !lanes.contains(tl.laneOf(id))) {
            return false;
        }
        Timeline.Kind k = tl.kinds[tl.kindOf(id)];
        if (levels != null && !levels.contains(k.level)) {
            return false;
        }
        if (segments != null) {
            int f = k.field("seg");
            if (f >= 0 && !segments.contains(tl.field(id, f))) {
                return false;
            }
        }
        if (eventcounts != null) {
            int f = k.field("event");
            if (f >= 0 && !eventcounts.contains(tl.field(id, f))) {
                return false;
            }
        }
        return true;
    }

    /** True when arrow {@code id} of {@code tl} passes the filter. */
    public boolean keepsArrow(Timeline tl, int id) {
        int kind = tl.arrowKind(id);
        if ((arrowKinds & (1 << kind)) == 0) {
            return false;
        }
        if (lanes != null && !lanes.contains(tl.arrowFromLane(id)) && !lanes.contains(tl.arrowToLane(id))) {
            return false;
        }
        if (levels != null && !levels.contains(kind == Timeline.MESSAGE ? "message"
                : kind == Timeline.SYNC ? "program" : "replay")) {
            return false;
        }
        if (kind == Timeline.MESSAGE) {
            int t = tl.arrowType(id);
            if (t >= 0 && t < 3 && (messageTypes & (1 << t)) == 0) {
                return false;
            }
            return segments == null || segments.contains(tl.arrowKey(id));
        }
        if (kind == Timeline.SYNC) {
            return eventcounts == null || eventcounts.contains(tl.arrowKey(id));
        }
        return true;
    }
}
