package org.dsmscope.report;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The CDAT figures (seed 000 §5, Appendix C; cdat/README.md's JSON) of one program: hits and where misses are
 * satisfied per stream, transactions by type, the state table, the average latency and the utilization per
 * processor; and a sweep's configurations compared, per varied item.
 */
final class CdatFigures {
    private static final String[] WHERE = {"hits", "localMemory", "localCache", "remoteMemory", "remoteCache"};
    private static final String[] WHERE_NAMES = {"hits", "misses from local memory", "misses from a local cache",
        "misses from remote memory", "misses from a remote cache"};

    private CdatFigures() {
    }

    static List<Figure> of(String prefix, List<Result> rs) {
        List<String> labels = new ArrayList<>();
        List<String> plain = Labels.of(rs);
        for (int i = 0; i < rs.size(); i++) {
            labels.add(plain.get(i) + " " + rs.get(i).json.path("config").path("name").asText());
        }
        List<JsonNode> aggs = new ArrayList<>();
        for (Result r : rs) {
            aggs.add(r.json.path("aggregate"));
        }
        List<Figure> f = new ArrayList<>();
        f.add(streams(prefix + "-cdat-streams", labels, aggs, "processors"));
        f.add(byType(prefix, labels, aggs));
        f.add(stateTable(prefix, labels, aggs));
        f.add(latency(prefix, labels, aggs));
        f.add(utilization(prefix, labels, aggs));
        return f;
    }

    /** Hits and where misses are satisfied, one stacked bar per run, one chart per stream with accesses. */
    static Figure streams(String id, List<String> labels, List<JsonNode> aggs, String xLabel) {
        Figure f = new Figure(id, "Hits and where misses are satisfied", "seed 000 §5.3",
                "Each bar splits one run's accesses of a stream (data, instruction, I/O) into cache hits and misses"
                        + " satisfied from local memory, a local cache, remote memory or a remote cache.");
        f.header(List.of("run", "stream", "hits", "local memory", "local cache", "remote memory", "remote cache"));
        for (String stream : new String[] {"data", "instruction", "io"}) {
            BarChart c = new BarChart(id + "-" + stream, xLabel, "% of " + stream + " accesses", true, true, labels);
            boolean any = false;
            double[][] hs = new double[WHERE.length][labels.size()];
            String[][] raw = new String[WHERE.length][labels.size()];
            for (int i = 0; i < labels.size(); i++) {
                JsonNode s = aggs.get(i).path("streams").path(stream);
                long all = s.path("hits").asLong() + s.path("misses").asLong();
                any |= all > 0;
                List<String> row = new ArrayList<>(List.of(labels.get(i), stream));
                for (int w = 0; w < WHERE.length; w++) {
                    long n = s.path(WHERE[w]).asLong();
                    hs[w][i] = all == 0 ? 0 : 100.0 * n / all;
                    raw[w][i] = Long.toString(n);
                    row.add(Fmt.count(n) + " (" + Fmt.pct(hs[w][i]) + ")");
                }
                if (all > 0) {
                    f.row(row);
                }
            }
            if (any) {
                for (int w = 0; w < WHERE.length; w++) {
                    c.add(WHERE_NAMES[w], hs[w], raw[w]);
                }
                f.svg(c.svg());
            }
        }
        return f;
    }

    private static Figure byType(String prefix, List<String> labels, List<JsonNode> aggs) {
        Figure f = new Figure(prefix + "-cdat-transactions", "Transactions by type", "seed 000 Appendix C",
                "Bars count the interconnect transactions of each type (non-zero types only): requests, returns,"
                        + " invalidations, recalls and write-backs the protocol generated.");
        Set<String> types = new LinkedHashSet<>();
        for (JsonNode a : aggs) {
            for (Map.Entry<String, JsonNode> e : a.path("byType").properties()) {
                if (e.getValue().asLong() > 0) {
                    types.add(e.getKey());
                }
            }
        }
        List<String> cats = new ArrayList<>(types);
        List<String> h = new ArrayList<>(List.of("type"));
        h.addAll(labels);
        f.header(h);
        BarChart c = new BarChart(prefix + "-cdat-transactions-chart", "transaction type", "transactions", false, false,
                cats);
        for (int i = 0; i < labels.size(); i++) {
            double[] hs = new double[cats.size()];
            String[] raw = new String[cats.size()];
            for (int k = 0; k < cats.size(); k++) {
                long n = aggs.get(i).path("byType").path(cats.get(k)).asLong();
                hs[k] = n;
                raw[k] = Long.toString(n);
            }
            c.add(labels.get(i), hs, raw);
        }
        for (String t : cats) {
            List<String> row = new ArrayList<>(List.of(t));
            for (JsonNode a : aggs) {
                row.add(Fmt.count(a.path("byType").path(t).asLong()));
            }
            f.row(row);
        }
        f.row(totals("all transactions", aggs, "transactions"));
        f.row(totals("processor requests", aggs, "requests"));
        return c.isEmpty() ? f : f.svg(c.svg());
    }

    private static List<String> totals(String name, List<JsonNode> aggs, String field) {
        List<String> row = new ArrayList<>(List.of(name));
        for (JsonNode a : aggs) {
            row.add(Fmt.count(a.path(field).asLong()));
        }
        return row;
    }

    private static Figure stateTable(String prefix, List<String> labels, List<JsonNode> aggs) {
        Figure f = new Figure(prefix + "-cdat-states", "State table", "seed 000 §5.3",
                "Requests by where the line's home is, where copies are, the directory status the request found and"
                        + " the request type (rows with requests only).");
        List<String> h = new ArrayList<>(List.of("run", "home", "presence", "status"));
        JsonNode cols = aggs.get(0).path("stateTable").path("columns");
        cols.forEach(c -> h.add(c.asText()));
        f.header(h);
        for (int i = 0; i < labels.size(); i++) {
            for (JsonNode row : aggs.get(i).path("stateTable").path("rows")) {
                if (Json.sum(row.path("counts")) == 0) {
                    continue;
                }
                List<String> r = new ArrayList<>(List.of(labels.get(i), row.path("home").asText(),
                        row.path("presence").asText(), row.path("status").asText()));
                row.path("counts").forEach(n -> r.add(Fmt.count(n.asLong())));
                f.row(r);
            }
        }
        return f;
    }

    private static Figure latency(String prefix, List<String> labels, List<JsonNode> aggs) {
        Figure f = new Figure(prefix + "-cdat-latency", "Average latency", "seed 000 §5.3",
                "Transactions on the critical path per processor request that left the node: lower is faster.");
        f.header(List.of("run", "average latency", "critical path", "requests"));
        BarChart c = new BarChart(prefix + "-cdat-latency-chart", "processors", "transactions per request", false,
                false, labels);
        double[] hs = new double[labels.size()];
        String[] raw = new String[labels.size()];
        for (int i = 0; i < labels.size(); i++) {
            JsonNode a = aggs.get(i);
            hs[i] = a.path("averageLatency").asDouble();
            raw[i] = Json.raw(a.path("averageLatency"));
            f.row(List.of(labels.get(i), raw[i], Fmt.count(a.path("criticalPath").asLong()),
                    Fmt.count(a.path("requests").asLong())));
        }
        c.add("average latency", hs, raw);
        return f.svg(c.svg());
    }

    private static Figure utilization(String prefix, List<String> labels, List<JsonNode> aggs) {
        Figure f = new Figure(prefix + "-cdat-utilization", "Utilization per processor", "seed 000 §5.3",
                "Each bar is the share of the run a simulated processor was active (not idle).");
        int maxP = 0;
        for (JsonNode a : aggs) {
            maxP = Math.max(maxP, a.path("processorActivity").size());
        }
        List<String> cats = new ArrayList<>();
        for (int p = 0; p < maxP; p++) {
            cats.add("P" + p);
        }
        f.header(List.of("run", "processor", "active", "idle", "utilization"));
        BarChart c = new BarChart(prefix + "-cdat-utilization-chart", "processor", "% utilization", false, true, cats);
        for (int i = 0; i < labels.size(); i++) {
            JsonNode act = aggs.get(i).path("processorActivity");
            double[] hs = new double[maxP];
            String[] raw = new String[maxP];
            for (int p = 0; p < maxP; p++) {
                JsonNode u = act.path(p).path("utilization");
                hs[p] = p < act.size() ? 100 * u.asDouble() : Double.NaN;
                raw[p] = p < act.size() ? Json.raw(u) : "";
                if (p < act.size()) {
                    f.row(List.of(labels.get(i), "P" + p, Fmt.count(act.get(p).path("active").asLong()),
                            Fmt.count(act.get(p).path("idle").asLong()), Fmt.pct(hs[p])));
                }
            }
            c.add(labels.get(i), hs, raw);
        }
        return f.svg(c.svg());
    }

    /** A sweep: every configuration's hits and misses, and per varied item the average latency by its values. */
    static List<Figure> sweep(String prefix, Result sweep) {
        List<Figure> out = new ArrayList<>();
        JsonNode cfgs = sweep.json.path("configurations");
        List<String> names = new ArrayList<>();
        List<JsonNode> aggs = new ArrayList<>();
        Set<String> items = new LinkedHashSet<>();
        for (JsonNode c : cfgs) {
            names.add(c.path("name").asText());
            aggs.add(c.path("results").path("aggregate"));
            c.path("varied").fieldNames().forEachRemaining(items::add);
        }
        String id = prefix + "-sweep-" + Labels.slug(sweep.file.getFileName().toString());
        Figure s = streams(id + "-streams", names, aggs, "configuration");
        Figure hits = new Figure(id + "-streams", "Sweep (" + sweep.file.getFileName() + "): hits and where misses"
                + " are satisfied per configuration", "seed 000 §5", s.guide);
        hits.svgs.addAll(s.svgs);
        hits.header(s.header);
        hits.rows.addAll(s.rows);
        out.add(hits);
        for (String item : items) {
            List<String> values = new ArrayList<>();
            List<String> others = new ArrayList<>();
            for (JsonNode c : cfgs) {
                String v = c.path("varied").path(item).asText();
                if (!values.contains(v)) {
                    values.add(v);
                }
                String o = otherItems(c.path("varied"), item);
                if (!others.contains(o)) {
                    others.add(o);
                }
            }
            Figure f = new Figure(id + "-" + Labels.slug(item), "Sweep: average latency and data hits by " + item,
                    "seed 000 §5", "Bars group the configurations by their value of " + item + " (one bar per"
                    + " combination of the other varied items): the average latency and the data hit share.");
            f.header(List.of(item, "other items", "configuration", "average latency", "data hits"));
            BarChart lat = new BarChart(id + "-" + Labels.slug(item) + "-latency", item, "average latency", false,
                    false, values);
            BarChart hit = new BarChart(id + "-" + Labels.slug(item) + "-hits", item, "% data hits", false, true,
                    values);
            for (String o : others) {
                double[] lh = new double[values.size()];
                double[] hh = new double[values.size()];
                String[] lr = new String[values.size()];
                String[] hr = new String[values.size()];
                java.util.Arrays.fill(lh, Double.NaN);
                java.util.Arrays.fill(hh, Double.NaN);
                java.util.Arrays.fill(lr, "");
                java.util.Arrays.fill(hr, "");
                for (int i = 0; i < names.size(); i++) {
                    JsonNode c = cfgs.get(i);
                    if (!otherItems(c.path("varied"), item).equals(o)) {
                        continue;
                    }
                    int k = values.indexOf(c.path("varied").path(item).asText());
                    JsonNode a = aggs.get(i);
                    JsonNode d = a.path("streams").path("data");
                    long all = d.path("hits").asLong() + d.path("misses").asLong();
                    lh[k] = a.path("averageLatency").asDouble();
                    lr[k] = Json.raw(a.path("averageLatency"));
                    hh[k] = all == 0 ? 0 : 100.0 * d.path("hits").asLong() / all;
                    hr[k] = d.path("hits").asText();
                    f.row(List.of(values.get(k), o, names.get(i), lr[k], Fmt.pct(hh[k])));
                }
                lat.add(o.isEmpty() ? "all" : o, lh, lr);
                hit.add(o.isEmpty() ? "all" : o, hh, hr);
            }
            out.add(f.svg(lat.svg()).svg(hit.svg()));
        }
        return out;
    }

    private static String otherItems(JsonNode varied, String item) {
        StringBuilder b = new StringBuilder();
        for (Map.Entry<String, JsonNode> e : varied.properties()) {
            if (!e.getKey().equals(item)) {
                b.append(b.length() == 0 ? "" : ", ").append(e.getKey()).append('=').append(e.getValue().asText());
            }
        }
        return b.toString();
    }
}
