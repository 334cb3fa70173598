package org.dsmscope.tdat;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.Locale;
import org.dsmscope.trace.BadInputException;
import org.dsmscope.trace.cdat.Txn;

/**
 * Which events TDAT counts ({@code --types}, {@code --processors}, {@code --nodes}; module README "Selection").
 *
 * <ul>
 *   <li>Types: one list for every input. Its CIAT entries ({@code RAW WAR WAW RAR}, any case) select the events of
 *   CIAT event traces, its CDAT entries (a code of Appendix C or its name, any case, e.g. {@code 2} or
 *   {@code read_priv_own}; the status codes 91 / 92 included) the records of CDAT traces. A list given without
 *   entries of one kind selects nothing from the inputs of that kind. Without {@code --types}: every CIAT event, and
 *   every CDAT transaction record, but not the status records 91 / 92 (a processor's change between active and idle
 *   is not traffic).</li>
 *   <li>Processors (CIAT event traces only): the event's {@code processor} field.</li>
 *   <li>Nodes (CDAT traces only): the node of the record's processor side: a general record's {@code node} field
 *   (5th); in a detailed record the 7th field for memory responses and recalls (codes 1x and 3x, which name the
 *   memory first) and the 5th otherwise.</li>
 * </ul>
 *
 * <p>Lists are comma-separated; processors and nodes are numbers 0 .. {@value #MAX_ID} or ranges {@code A-B}.
 */
public final class Selection {
    /** The largest processor or node number a list may name. */
    public static final int MAX_ID = 65535;
    /** CIAT event types in the order of their indices. */
    static final String[] CIAT_TYPES = {"RAW", "WAR", "WAW", "RAR"};
    private static final int CODES = 93;

    private final boolean[] ciatTypes = new boolean[CIAT_TYPES.length];
    private final boolean[] cdatCodes = new boolean[CODES];
    private final BitSet processors;
    private final BitSet nodes;
    private final List<String> typeNames;
    private final String processorText;
    private final String nodeText;

    private Selection(List<String> typeNames, BitSet processors, String processorText, BitSet nodes,
            String nodeText) {
        this.typeNames = typeNames;
        this.processors = processors;
        this.processorText = processorText;
        this.nodes = nodes;
        this.nodeText = nodeText;
    }

    /** Everything (the default): every CIAT event, every CDAT transaction, no status record. */
    public static Selection all() {
        return parse(null, null, null);
    }

    /**
     * The selection of the three option values ({@code null}: the option was not given). A bad entry is a
     * {@link BadInputException} naming the option and the entry.
     */
    public static Selection parse(String types, String processors, String nodes) {
        BitSet p = ids("--processors", processors);
        BitSet n = ids("--nodes", nodes);
        Selection s = new Selection(types == null ? null : new ArrayList<>(), p, canonical(p), n, canonical(n));
        if (types == null) {
            java.util.Arrays.fill(s.ciatTypes, true);
            for (int c : Txn.CODES) {
                s.cdatCodes[c] = true;
            }
            return s;
        }
        for (String e : entries("--types", types)) {
            int ciat = ciatType(e);
            if (ciat >= 0) {
                s.ciatTypes[ciat] = true;
                add(s.typeNames, CIAT_TYPES[ciat]);
                continue;
            }
            int code = cdatCode(e);
            if (code < 0) {
                throw new BadInputException("option --types: unknown event type '" + e + "' (CIAT event traces: RAW,"
                        + " WAR, WAW, RAR; CDAT traces: a code or name of seed 000 Appendix C, e.g. 2 or"
                        + " read_priv_own, status records 91 / 92)");
            }
            s.cdatCodes[code] = true;
            add(s.typeNames, Txn.name(code));
        }
        return s;
    }

    private static void add(List<String> names, String name) {
        if (!names.contains(name)) {
            names.add(name);
        }
    }

    /** The index of a CIAT event type name (any case), or -1. */
    static int ciatType(String e) {
        for (int i = 0; i < CIAT_TYPES.length; i++) {
            if (CIAT_TYPES[i].equalsIgnoreCase(e)) {
                return i;
            }
        }
        return -1;
    }

    private static int cdatCode(String e) {
        if (!e.isEmpty() && e.chars().allMatch(Character::isDigit)) {
            if (e.length() > 3) {
                return -1;
            }
            int c = Integer.parseInt(e);
            return Txn.valid(c) ? c : -1;
        }
        String lower = e.toLowerCase(Locale.ROOT);
        for (int c = 1; c < CODES; c++) {
            if (Txn.valid(c) && Txn.name(c).equals(lower)) {
                return c;
            }
        }
        return -1;
    }

    private static List<String> entries(String option, String list) {
        List<String> out = new ArrayList<>();
        for (String e : list.split(",", -1)) {
            String t = e.trim();
            if (t.isEmpty()) {
                throw new BadInputException("option " + option + ": empty entry in '" + list + "'");
            }
            out.add(t);
        }
        return out;
    }

    private static BitSet ids(String option, String list) {
        if (list == null) {
            return null;
        }
        BitSet set = new BitSet();
        for (String e : entries(option, list)) {
            int dash = e.indexOf('-', 1);
            int lo = id(option, e, dash < 0 ? e : e.substring(0, dash).trim());
            int hi = dash < 0 ? lo : id(option, e, e.substring(dash + 1).trim());
            if (hi < lo) {
                throw new BadInputException("option " + option + ": empty range '" + e + "'");
            }
            set.set(lo, hi + 1);
        }
        return set;
    }

    private static int id(String option, String entry, String s) {
        if (s.isEmpty() || s.length() > 9 || !s.chars().allMatch(Character::isDigit)) {
            throw new BadInputException("option " + option + ": '" + entry + "' is not a number or a range A-B of"
                    + " numbers 0.." + MAX_ID);
        }
        int v = Integer.parseInt(s);
        if (v > MAX_ID) {
            throw new BadInputException("option " + option + ": " + v + " out of range (0.." + MAX_ID + ")");
        }
        return v;
    }

    /** A set of numbers as sorted, merged ranges: {@code 0-3,7}; null for null. */
    private static String canonical(BitSet set) {
        if (set == null) {
            return null;
        }
        StringBuilder sb = new StringBuilder();
        for (int lo = set.nextSetBit(0); lo >= 0; ) {
            int hi = set.nextClearBit(lo) - 1;
            if (sb.length() > 0) {
                sb.append(',');
            }
            sb.append(lo);
            if (hi > lo) {
                sb.append('-').append(hi);
            }
            lo = set.nextSetBit(hi + 1);
        }
        return sb.toString();
    }

    /** True if a CIAT event of type index {@code type} (0 RAW, 1 WAR, 2 WAW, 3 RAR) on {@code processor} counts. */
    public boolean ciat(int type, int processor) {
        return ciatTypes[type] && (processors == null || processor >= 0 && processors.get(processor));
    }

    /** True if a CDAT record of {@code code} whose processor side is in {@code node} counts. */
    public boolean cdat(int code, int node) {
        return code >= 0 && code < CODES && cdatCodes[code] && (nodes == null || node >= 0 && nodes.get(node));
    }

    /** The types named by {@code --types}, canonical names in the order given; null without the option. */
    public List<String> types() {
        return typeNames == null ? null : List.copyOf(typeNames);
    }

    /** The processors of {@code --processors} as sorted ranges ({@code 0-3,7}); null without the option. */
    public String processors() {
        return processorText;
    }

    /** The nodes of {@code --nodes} as sorted ranges; null without the option. */
    public String nodes() {
        return nodeText;
    }
}
