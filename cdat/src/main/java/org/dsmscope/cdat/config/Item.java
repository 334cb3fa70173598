package org.dsmscope.cdat.config;

import java.util.Arrays;
import java.util.stream.Collectors;

/** The items of the configuration file, in the order {@link CdatConfig#toText()} writes them. */
enum Item {
    NAME("name", "1..64 letters, digits, '.', '_', '-' or '+'"),
    NODES("nodes", "1..32"),
    PROCESSORS_PER_NODE("processors_per_node", "1..128"),
    BANKS_PER_NODE("banks_per_node", "1..32"),
    LINE_SIZE("line_size", "a power of two, 4..4096"),
    PAGE_SIZE("page_size", "a power of two, line_size..1G"),
    PROTOCOL("protocol", "1..8"),
    PAGE_POLICY("page_policy", PagePolicy.LABELS),
    THREAD_MAP("thread_map", "spread, fill or a list of NODE.PROCESSOR"),
    GENERAL_TRACE("general_trace", "0 or 1"),
    DETAILED_TRACE("detailed_trace", "0 or 1"),
    DATA_CACHE("data_cache", "SIZE ASSOCIATIVITY REPLACEMENT, e.g. 32K 4 lru"),
    INSTRUCTION_CACHE("instruction_cache", "SIZE ASSOCIATIVITY REPLACEMENT, e.g. 32K 4 lru"),
    INTERCONNECT_CACHE("interconnect_cache", "0 for none, or SIZE ASSOCIATIVITY REPLACEMENT, e.g. 1M 8 lru");

    /** Every item's key, comma-separated, for the unknown-item message. */
    static final String KEYS = Arrays.stream(values()).map(i -> i.key).collect(Collectors.joining(", "));

    /** The key as the file writes it. */
    final String key;
    /** The allowed values, as error messages show them. */
    final String allowed;

    Item(String key, String allowed) {
        this.key = key;
        this.allowed = allowed;
    }

    /** The item with exactly this key, or null. */
    static Item find(String key) {
        for (Item i : values()) {
            if (i.key.equals(key)) {
                return i;
            }
        }
        return null;
    }
}
