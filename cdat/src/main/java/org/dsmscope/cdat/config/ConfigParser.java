package org.dsmscope.cdat.config;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.dsmscope.trace.BadInputException;

/**
 * Reads the text of a configuration file into a {@link CdatConfig.Builder}: the syntax of lines and values here,
 * ranges and checks across items in {@link CdatConfig.Builder#build()}.
 */
final class ConfigParser {
    private static final String SIZE_SYNTAX = "bytes with an optional K, M or G suffix";

    private final String source;
    private final CdatConfig.Builder b = new CdatConfig.Builder();
    private int line;

    private ConfigParser(String source, String defaultName) {
        this.source = source;
        b.source = source;
        b.name = defaultName;
    }

    /** Parses {@code text}; {@code source} starts error messages, {@code defaultName} is used without a name item. */
    static CdatConfig parse(String source, String defaultName, String text) {
        ConfigParser p = new ConfigParser(source, defaultName);
        p.read(text);
        return p.b.build();
    }

    private BadInputException error(String what) {
        return new BadInputException(source + ":" + line + ": " + what);
    }

    private BadInputException error(Item item, String what) {
        return error(item.key + ": " + what);
    }

    /** True if {@code text} has at least one {@code item = value} line (comments and the format line aside). */
    static boolean hasItems(String text) {
        for (String s : text.split("\r\n|\r|\n")) {
            int hash = s.indexOf('#');
            if ((hash >= 0 ? s.substring(0, hash) : s).indexOf('=') >= 0) {
                return true;
            }
        }
        return false;
    }

    private void read(String text) {
        String[] lines = text.split("\r\n|\r|\n", -1);
        boolean started = false;
        for (int i = 0; i < lines.length; i++) {
            line = i + 1;
            String s = lines[i];
            if (i == 0 && s.startsWith("\uFEFF")) {
                s = s.substring(1);
            }
            int hash = s.indexOf('#');
            s = (hash >= 0 ? s.substring(0, hash) : s).strip();
            if (s.isEmpty()) {
                continue;
            }
            int eq = s.indexOf('=');
            if (eq < 0) {
                String[] words = s.split("\\s+", 2);
                if (words[0].equals(CdatConfig.FORMAT_NAME)) {
                    if (started) {
                        throw error("format line '" + CdatConfig.FORMAT + "' allowed only as the first"
                                + " non-comment line");
                    }
                    if (words.length == 1) {
                        throw error("format line without a version (expected '" + CdatConfig.FORMAT + "')");
                    }
                    if (!words[1].equals("1")) {
                        throw error("unsupported format version '" + words[1] + "' (this version reads '"
                                + CdatConfig.FORMAT + "')");
                    }
                    started = true;
                    continue;
                }
                throw error("expected 'item = value'");
            }
            started = true;
            String key = s.substring(0, eq).strip();
            String value = s.substring(eq + 1).strip();
            if (key.isEmpty()) {
                throw error("expected 'item = value'");
            }
            Item item = Item.find(key);
            if (item == null) {
                Item lower = Item.find(key.toLowerCase(Locale.ROOT));
                throw error("unknown item '" + key + "' (" + (lower != null
                        ? "items are lower-case: '" + lower.key + "')" : "items: " + Item.KEYS + ")"));
            }
            int first = b.lines[item.ordinal()];
            if (first > 0) {
                throw error("duplicate item '" + key + "' (first on line " + first + ")");
            }
            if (value.isEmpty()) {
                throw error(item, "missing value (" + item.allowed + ")");
            }
            set(item, value);
            b.lines[item.ordinal()] = line;
            b.raw[item.ordinal()] = value;
        }
    }

    private void set(Item item, String value) {
        switch (item) {
            case NAME -> b.name = value;
            case NODES -> b.nodes = whole(item, value);
            case PROCESSORS_PER_NODE -> b.processorsPerNode = whole(item, value);
            case BANKS_PER_NODE -> b.banksPerNode = whole(item, value);
            case LINE_SIZE -> b.lineSize = size(item, value);
            case PAGE_SIZE -> b.pageSize = size(item, value);
            case PROTOCOL -> b.protocol = whole(item, value);
            case PAGE_POLICY -> {
                PagePolicy p = PagePolicy.find(value);
                if (p == null) {
                    throw error(item, "value '" + value + "' not allowed (" + item.allowed + ")");
                }
                b.pagePolicy = p;
            }
            case GENERAL_TRACE -> b.generalTrace = flag(item, value);
            case DETAILED_TRACE -> b.detailedTrace = flag(item, value);
            case DATA_CACHE -> b.dataCache = cache(item, value);
            case INSTRUCTION_CACHE -> b.instructionCache = cache(item, value);
            case INTERCONNECT_CACHE -> b.interconnectCache = cache(item, value);
            case THREAD_MAP -> threadMap(value);
        }
    }

    /** A whole number; one too large for a long is Long.MAX_VALUE or MIN_VALUE (out of range anyway). */
    private long whole(Item item, String value) {
        if (!value.matches("[+-]?[0-9]+")) {
            throw error(item, "value '" + value + "' is not a whole number (" + item.allowed + ")");
        }
        boolean negative = value.startsWith("-");
        String digits = value.replaceFirst("^[+-]?0*(?=.)", "");
        if (digits.length() > 18) {
            return negative ? Long.MIN_VALUE : Long.MAX_VALUE;
        }
        long v = Long.parseLong(digits);
        return negative ? -v : v;
    }

    private long size(Item item, String value) {
        long v = Sizes.parse(value);
        if (v < 0) {
            throw error(item, "value '" + value + "' is not a size (" + SIZE_SYNTAX + ")");
        }
        return v;
    }

    private boolean flag(Item item, String value) {
        return switch (value) {
            case "0" -> false;
            case "1" -> true;
            default -> throw error(item, "value '" + value + "' not allowed (" + item.allowed + ")");
        };
    }

    /** SIZE ASSOCIATIVITY REPLACEMENT, or for the interconnect cache 0 (none: null). */
    private CdatConfig.Builder.CacheSpec cache(Item item, String value) {
        String[] f = value.split("\\s+");
        boolean interconnect = item == Item.INTERCONNECT_CACHE;
        if (interconnect && f.length == 1 && Sizes.parse(f[0]) == 0) {
            return null;
        }
        if (f.length != 3) {
            throw error(item, "value '" + value + "' is not SIZE ASSOCIATIVITY REPLACEMENT ("
                    + (interconnect ? "e.g. 1M 8 lru, or 0 for none" : "e.g. 32K 4 lru") + ")");
        }
        long size = Sizes.parse(f[0]);
        if (size < 0) {
            throw error(item, "size '" + f[0] + "' is not a size (" + SIZE_SYNTAX + ")");
        }
        int associativity;
        if (f[1].equalsIgnoreCase("full")) {
            associativity = 0;
        } else if (f[1].matches("[0-9]{1,9}") && Integer.parseInt(f[1]) > 0) {
            associativity = Integer.parseInt(f[1]);
        } else {
            throw error(item, "associativity '" + f[1] + "' not allowed (a whole number from 1, or full)");
        }
        Replacement r = Replacement.find(f[2]);
        if (r == null) {
            throw error(item, "replacement '" + f[2] + "' not allowed (" + Replacement.LABELS + ")");
        }
        if (interconnect && size == 0) {
            return null;
        }
        return new CdatConfig.Builder.CacheSpec(size, f[0], associativity, r, 0);
    }

    /** spread, fill or a list of NODE.PROCESSOR. */
    private void threadMap(String value) {
        if (value.equalsIgnoreCase("spread")) {
            b.threadMap = ThreadMap.SPREAD;
            return;
        }
        if (value.equalsIgnoreCase("fill")) {
            b.threadMap = ThreadMap.FILL;
            return;
        }
        String[] f = value.split("\\s+");
        List<ThreadMap.Slot> slots = new ArrayList<>(f.length);
        for (int i = 0; i < f.length; i++) {
            if (!f[i].matches("[0-9]+\\.[0-9]+")) {
                throw error(Item.THREAD_MAP, "value '" + f[i] + "' for replay processor " + i + " is not"
                        + " NODE.PROCESSOR (" + Item.THREAD_MAP.allowed + ")");
            }
            int dot = f[i].indexOf('.');
            slots.add(new ThreadMap.Slot(number(f[i].substring(0, dot)), number(f[i].substring(dot + 1))));
        }
        b.threadMap = ThreadMap.list(slots);
        b.threadMapEntries = List.of(f);
    }

    /** Digits as an int; more than an int holds is Integer.MAX_VALUE (out of range anyway). */
    private static int number(String digits) {
        String d = digits.replaceFirst("^0+(?=.)", "");
        return d.length() > 9 ? Integer.MAX_VALUE : Integer.parseInt(d);
    }
}
