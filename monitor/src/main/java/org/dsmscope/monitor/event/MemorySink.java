package org.dsmscope.monitor.event;

import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;
import java.util.function.Predicate;

/** A sink keeping every event in memory (tests, small live views). Thread-safe. */
public final class MemorySink implements EventSink {
    private final List<EventBuffer> batches = new ArrayList<>();
    private final TreeMap<Integer, String> procs = new TreeMap<>();

    @Override
    public synchronized void accept(EventBuffer batch) {
        batches.add(batch.copy());
    }

    @Override
    public synchronized void process(int proc, String name) {
        procs.put(proc, name);
    }

    /** Process names seen. */
    public synchronized TreeMap<Integer, String> processes() {
        return new TreeMap<>(procs);
    }

    /** All events so far in one buffer (arrival order). */
    public synchronized EventBuffer all() {
        int n = 0;
        for (EventBuffer b : batches) {
            n += b.size();
        }
        EventBuffer out = new EventBuffer(Math.max(1, n));
        for (EventBuffer b : batches) {
            for (int i = 0; i < b.size(); i++) {
                out.addFrom(b, i);
            }
        }
        return out;
    }

    /** Number of events of {@code type} (optionally of one process, -1 for all) matching {@code filter}. */
    public synchronized int count(EventType type, int proc, Predicate<Integer> filter) {
        EventBuffer all = all();
        int n = 0;
        for (int i = 0; i < all.size(); i++) {
            if (all.type[i] == type.code && (proc < 0 || all.proc[i] == proc) && filter.test(i)) {
                n++;
            }
        }
        return n;
    }
}
