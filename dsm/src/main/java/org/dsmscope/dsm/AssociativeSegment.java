package org.dsmscope.dsm;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;

/**
 * An associative segment (seed 002 §3.1): key → value pairs. A member sees its own puts at once. In order, puts
 * are ordered by the owner and every replica applies them in that order (the last put of a key wins everywhere);
 * out of order, replicas apply puts in arrival order.
 */
public final class AssociativeSegment extends Segment {
    private final TreeMap<String, byte[]> map = new TreeMap<>();
    private final LinkedHashMap<String, byte[]> local = new LinkedHashMap<>();

    AssociativeSegment(int id, Consistency c, long base, int owner) {
        super(id, SegmentType.ASSOCIATIVE, c, base, 1 << 20, owner);
    }

    /** Puts a value under a key. */
    public synchronized void put(String key, byte[] value) {
        local.put(key, value.clone());
        map.put(key, value.clone());
    }

    /** The value of a key visible here, or null. */
    public synchronized byte[] get(String key) {
        byte[] v = map.get(key);
        return v == null ? null : v.clone();
    }

    /** Number of keys visible here. */
    public synchronized int count() {
        return map.size();
    }

    /** A snapshot of the visible keys and values, in key order. */
    public synchronized TreeMap<String, byte[]> snapshot() {
        return new TreeMap<>(map);
    }

    @Override
    synchronized boolean dirty() {
        return !local.isEmpty();
    }

    @Override
    synchronized byte[] takeLocal() {
        if (local.isEmpty()) {
            return null;
        }
        int n = 4;
        for (Map.Entry<String, byte[]> e : local.entrySet()) {
            n += 8 + e.getKey().length() * 3 + e.getValue().length;
        }
        ByteBuffer bb = ByteBuffer.allocate(n);
        bb.putInt(local.size());
        for (Map.Entry<String, byte[]> e : local.entrySet()) {
            byte[] k = e.getKey().getBytes(StandardCharsets.UTF_8);
            bb.putInt(k.length).put(k).putInt(e.getValue().length).put(e.getValue());
        }
        local.clear();
        return java.util.Arrays.copyOf(bb.array(), bb.position());
    }

    @Override
    synchronized byte[] order(byte[] payload) {
        apply(-1, payload);
        return payload;
    }

    @Override
    synchronized long[] apply(int writer, byte[] payload) {
        ByteBuffer bb = ByteBuffer.wrap(payload);
        int n = bb.getInt();
        for (int i = 0; i < n; i++) {
            byte[] k = new byte[bb.getInt()];
            bb.get(k);
            byte[] v = new byte[bb.getInt()];
            bb.get(v);
            map.put(new String(k, StandardCharsets.UTF_8), v);
        }
        return null;
    }
}
