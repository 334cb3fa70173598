package org.dsmscope.replay;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/** Problems a replay continued past (with {@link ReplayOptions#skipBadRecords}), in the order met. */
final class Problems {
    private static final int KEEP = 1000;
    private final List<String> list = new ArrayList<>();
    private long count;

    void add(String msg) {
        count++;
        if (list.size() < KEEP) {
            list.add(msg);
        }
    }

    /** Adds {@code other}'s problems after these (its count too, also of those it did not keep). */
    void addAll(Problems other) {
        for (String m : other.list) {
            add(m);
        }
        count += other.count - other.list.size();
    }

    long count() {
        return count;
    }

    List<String> list() {
        return Collections.unmodifiableList(list);
    }
}
