package org.dsmscope.cdat.config;

import java.util.List;
import java.util.Objects;
import java.util.stream.Collectors;

/**
 * How replay processors (the threads of the trace set, numbered from 0) are mapped to the processors of the
 * configuration: the {@code thread_map} item. {@link #SPREAD} (the default) deals them out over the nodes first,
 * {@link #FILL} fills node 0's processors first, and an explicit list names the node and processor of each replay
 * processor, repeating when there are more replay processors than entries. {@link CdatConfig#processorOf(int)}
 * applies the map; the configuration checks that every listed slot exists.
 *
 * @param kind spread, fill or an explicit list
 * @param slots the list's entries, entry i for replay processor i (empty for spread and fill)
 */
public record ThreadMap(Kind kind, List<Slot> slots) {

    /** Which rule maps a replay processor. */
    public enum Kind {
        /** Replay processor i → node i mod nodes, processor (i / nodes) mod processors_per_node. */
        SPREAD,
        /** Replay processor i → global processor i mod processors(), node-major (node 0's processors first). */
        FILL,
        /** Replay processor i → entry i mod (number of entries) of the list. */
        LIST
    }

    /** A processor of the configuration: node (from 0) and processor within the node (from 0), written N.P. */
    public record Slot(int node, int processor) {
        /** Checks that both numbers are 0 or more. */
        public Slot {
            if (node < 0 || processor < 0) {
                throw new IllegalArgumentException("thread map slot " + node + "." + processor + ": negative");
            }
        }

        @Override
        public String toString() {
            return node + "." + processor;
        }
    }

    /** The default: replay processors dealt out over the nodes first. */
    public static final ThreadMap SPREAD = new ThreadMap(Kind.SPREAD, List.of());
    /** Replay processors fill node 0's processors, then node 1's, and so on. */
    public static final ThreadMap FILL = new ThreadMap(Kind.FILL, List.of());

    /** Checks that a list has at least one entry and spread and fill have none; copies the entries. */
    public ThreadMap {
        Objects.requireNonNull(kind, "kind");
        slots = List.copyOf(slots);
        if ((kind == Kind.LIST) == slots.isEmpty()) {
            throw new IllegalArgumentException(kind == Kind.LIST ? "thread map list: no entries"
                    : "thread map " + kind + ": takes no entries");
        }
    }

    /** An explicit list: entry i is the slot of replay processor i. */
    public static ThreadMap list(List<Slot> slots) {
        return new ThreadMap(Kind.LIST, slots);
    }

    /** An explicit list: entry i is the slot of replay processor i. */
    public static ThreadMap list(Slot... slots) {
        return new ThreadMap(Kind.LIST, List.of(slots));
    }

    /** As the configuration file writes it: {@code spread}, {@code fill} or the entries, e.g. {@code 0.0 1.0 0.1}. */
    public String toText() {
        return switch (kind) {
            case SPREAD -> "spread";
            case FILL -> "fill";
            case LIST -> slots.stream().map(Slot::toString).collect(Collectors.joining(" "));
        };
    }
}
