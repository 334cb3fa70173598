package org.dsmscope.monitor.probe;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.ToIntFunction;
import org.jgroups.Address;
import org.jgroups.util.NameCache;

/**
 * Maps a JGroups address to the process id used in events: the number at the end of the member's logical name
 * ("m3" → 3) when there is one, so ids agree across JVMs; otherwise ids from 10,000 up, assigned in order of
 * first sight within this JVM.
 */
public final class PeerIds implements ToIntFunction<Address> {
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
        String name = NameCache.get(a);
        int v = trailingNumber(name);
        if (v < 0) {
            synchronized (this) {
                v = next++;
            }
        }
        assigned.put(a, v);
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
