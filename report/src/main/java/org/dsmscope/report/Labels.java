package org.dsmscope.report;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/** Labels of results in a figure: {@code p=N}, with the file name added when two results share N. */
final class Labels {
    private Labels() {
    }

    static List<String> of(List<Result> rs) {
        return of(rs, r -> "");
    }

    /**
     * Labels {@code p=N} of results told apart by {@code kind} too (e.g. the access-age scope): the file name is
     * added only when two results share N and kind.
     */
    static List<String> of(List<Result> rs, Function<Result, String> kind) {
        Map<String, Integer> seen = new HashMap<>();
        for (Result r : rs) {
            seen.merge(r.processors + " " + kind.apply(r), 1, Integer::sum);
        }
        List<String> l = new ArrayList<>();
        for (Result r : rs) {
            l.add("p=" + r.processors + (seen.get(r.processors + " " + kind.apply(r)) > 1 ? " "
                    + r.file.getFileName() : ""));
        }
        return l;
    }

    /** A label as an id part: letters, digits and dashes. */
    static String slug(String s) {
        return s.replaceAll("[^A-Za-z0-9]+", "-").replaceAll("^-|-$", "").toLowerCase(java.util.Locale.ROOT);
    }
}
