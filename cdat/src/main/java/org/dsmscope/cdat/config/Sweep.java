package org.dsmscope.cdat.config;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.dsmscope.trace.BadInputException;

/**
 * A sweep of configurations (SPEC §10 {@code dsmscope sweep}): a base configuration and, per varied item, a list of
 * values ({@code protocol=1,2,3}, {@code data_cache=8K 4 lru,32K 4 lru}); the configurations are every combination,
 * first item varying slowest, named {@code s01}, {@code s02}, ... and checked as a configuration file would be.
 */
public final class Sweep {
    /** At most this many configurations in one sweep (each keeps its own simulated machine). */
    public static final int MAX = 64;

    /** One configuration of the sweep and the values its varied items take. */
    public record Point(CdatConfig config, Map<String, String> values) {
    }

    private Sweep() {
    }

    /**
     * Every combination of {@code varies} ({@code item=v1,v2,...} each) over {@code base}. Bad input (an unknown
     * item, an item given twice, {@code name}, an empty value list, a value out of range, too many combinations)
     * gives a {@link BadInputException} naming the {@code --vary} argument.
     */
    public static List<Point> expand(CdatConfig base, List<String> varies) {
        List<String> items = new ArrayList<>();
        List<List<String>> values = new ArrayList<>();
        long combinations = 1;
        for (String v : varies) {
            int eq = v.indexOf('=');
            if (eq <= 0) {
                throw new BadInputException("--vary " + v + ": expected ITEM=VALUE,VALUE,...");
            }
            String item = v.substring(0, eq).trim();
            if (Item.find(item) == null) {
                throw new BadInputException("--vary " + v + ": unknown item '" + item + "' (items: " + Item.KEYS + ")");
            }
            if (item.equals(Item.NAME.key)) {
                throw new BadInputException("--vary " + v + ": the sweep names its configurations itself");
            }
            if (items.contains(item)) {
                throw new BadInputException("--vary " + v + ": item '" + item + "' is varied twice");
            }
            List<String> list = new ArrayList<>();
            for (String x : v.substring(eq + 1).split(",", -1)) {
                if (x.isBlank()) {
                    throw new BadInputException("--vary " + v + ": an empty value");
                }
                if (list.contains(x.trim())) {
                    throw new BadInputException("--vary " + v + ": value '" + x.trim() + "' given twice (two"
                            + " configurations alike)");
                }
                list.add(x.trim());
            }
            items.add(item);
            values.add(list);
            combinations *= list.size();
            if (combinations > MAX) {
                throw new BadInputException("--vary: " + combinations + "+ configurations; a sweep simulates at most "
                        + MAX + " at once");
            }
        }
        List<Point> out = new ArrayList<>();
        int[] at = new int[items.size()];
        for (int k = 0; k < combinations; k++) {
            Map<String, String> chosen = new LinkedHashMap<>();
            for (int i = 0; i < items.size(); i++) {
                chosen.put(items.get(i), values.get(i).get(at[i]));
            }
            String name = String.format("s%02d", k + 1);
            out.add(new Point(configure(base, name, chosen), chosen));
            for (int i = items.size() - 1; i >= 0; i--) {
                if (++at[i] < values.get(i).size()) {
                    break;
                }
                at[i] = 0;
            }
        }
        return out;
    }

    private static CdatConfig configure(CdatConfig base, String name, Map<String, String> chosen) {
        StringBuilder text = new StringBuilder();
        for (String line : base.toText().split("\n")) {
            int eq = line.indexOf(" = ");
            String key = eq < 0 ? null : line.substring(0, eq);
            if (Item.NAME.key.equals(key)) {
                text.append(key).append(" = ").append(name);
            } else if (key != null && chosen.containsKey(key)) {
                text.append(key).append(" = ").append(chosen.get(key));
            } else {
                text.append(line);
            }
            text.append('\n');
        }
        StringBuilder label = new StringBuilder("--vary");
        chosen.forEach((k, v) -> label.append(' ').append(k).append('=').append(v));
        try {
            return CdatConfig.parse(name, text.toString());
        } catch (BadInputException e) {
            // the message names the sweep's text; say which combination instead
            String m = e.getMessage();
            int colon = m.indexOf(": ", m.indexOf(':') + 1);
            throw new BadInputException(label + ": " + (colon > 0 ? m.substring(colon + 2) : m));
        }
    }
}
