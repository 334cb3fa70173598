package org.dsmscope.monitor.probe;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.ToIntFunction;
import org.jgroups.Address;
import org.jgroups.util.ExtendedUUID;
import org.jgroups.util.NameCache;

/**
 * Maps a JGroups address to the process id used in events: the id carried in the address itself (an
 * {@link ExtendedUUID} with key {@value #KEY}, see {@link #address}) or the number at the end of the member's
 * logical name ("m3" → 3), so ids agree across JVMs; otherwise ids from 10,000 up, assigned in order of first
 * sight within this JVM. Only ids read from the address or a known name are cached.
 */
public final class PeerIds implements ToIntFunction<Address> {
    /** Key of the process id in an {@link ExtendedUUID} address. */
    public static final String KEY = "dsmscope.proc";

    /** An address that carries its process id: install with {@code channel.addAddressGenerator(() -> ...)}. */
    public static ExtendedUUID address(String name, int proc) {
        return ExtendedUUID.randomUUID(name).put(KEY, java.nio.ByteBuffer.allocate(4).putInt(proc).array());
    }

    /** The JVM-wide instance. */
    public static final PeerIds GLOBAL = new PeerIds();

    private final Map<Object, Integer> assigned = new ConcurrentHashMap<>();
    private int next = 10_000;

    @Override
    public int applyAsInt(Address a) {
        if (a == null) {
            return -1;
        }
        Integer id = assigned.get(a);
        if (id != null) {
            return id;
        }
        if (a instanceof ExtendedUUID) {
            byte[] v = ((ExtendedUUID) a).get(KEY);
            if (v != null && v.length == 4) {
                int p = java.nio.ByteBuffer.wrap(v).getInt();
                assigned.put(a, p);
                return p;
            }
        }
        String name = NameCache.get(a);
        int v = trailingNumber(name);
        if (v >= 0) {
            assigned.put(a, v);
            return v;
        }
        synchronized (this) {
            Integer again = assigned.get(a);
            if (again != null) {
                return again;
            }
            v = next++;
            assigned.put(a, v);
        }
        return v;
    }

    /** The non-negative number that ends {@code name}, or -1. */
    public static int trailingNumber(String name) {
        if (name == null) {
            return -1;
        }
        int i = name.length();
        while (i > 0 && Character.isDigit(name.charAt(i - 1))) {
            i--;
        }
        if (i == name.length() || name.length() - i > 8) {
            return -1;
        }
        return Integer.parseInt(name.substring(i));
    }
}
