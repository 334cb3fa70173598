package org.dsmscope.dsm;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

/**
 * A sequential-access segment (seed 002 §3.1): written by appending, read from the front. In order, appends go
 * to the owner, which gives them positions and publishes them, so every replica holds one order; out of order,
 * appends go straight to the copy set and each replica appends in arrival order (cheaper, orders may differ).
 */
public final class SequentialSegment extends Segment {
    private final List<byte[]> items = new ArrayList<>();
    private final List<byte[]> local = new ArrayList<>();
    private int cursor;

    SequentialSegment(int id, Consistency c, long base, int owner) {
        super(id, SegmentType.SEQUENTIAL, c, base, 1 << 20, owner);
    }

    /** Appends an item (visible to others after the next consistency point). */
    public synchronized void append(byte[] item) {
        local.add(item.clone());
        if (!ordered()) {
            items.add(item.clone());
        }
    }

    /** Number of items visible here. */
    public synchronized int length() {
        return items.size();
    }

    /** The item at {@code index}, or null if not visible here (yet). */
    public synchronized byte[] get(int index) {
        return index < items.size() ? items.get(index).clone() : null;
    }

    /** Reads the front item (this member's read position advances), or null if none is visible yet. */
    public synchronized byte[] readFront() {
        return cursor < items.size() ? items.get(cursor++).clone() : null;
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
        byte[] out = encode(-1, local);
        local.clear();
        return out;
    }

    private static byte[] encode(long start, List<byte[]> list) {
        int n = 12;
        for (byte[] b : list) {
            n += 4 + b.length;
        }
        ByteBuffer bb = ByteBuffer.allocate(n);
        bb.putLong(start).putInt(list.size());
        for (byte[] b : list) {
            bb.putInt(b.length).put(b);
        }
        return bb.array();
    }

    private static List<byte[]> decode(ByteBuffer bb) {
        int n = bb.getInt();
        List<byte[]> l = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            byte[] b = new byte[bb.getInt()];
            bb.get(b);
            l.add(b);
        }
        return l;
    }

    @Override
    synchronized byte[] order(byte[] payload) {
        ByteBuffer bb = ByteBuffer.wrap(payload);
        bb.getLong();
        List<byte[]> l = decode(bb);
        long start = items.size();
        items.addAll(l);
        return encode(start, l);
    }

    @Override
    synchronized long[] apply(int writer, byte[] payload) {
        ByteBuffer bb = ByteBuffer.wrap(payload);
        long start = bb.getLong();
        List<byte[]> l = decode(bb);
        if (start < 0) {
            items.addAll(l);
            return null;
        }
        for (int i = 0; i < l.size(); i++) {
            long pos = start + i;
            while (items.size() < pos) {
                items.add(new byte[0]);
            }
            if (pos == items.size()) {
                items.add(l.get(i));
            } else {
                items.set((int) pos, l.get(i));
            }
        }
        return null;
    }
}
