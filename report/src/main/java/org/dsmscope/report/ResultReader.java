package org.dsmscope.report;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads result files for the report (SPEC §10): the kind of each from its format line ({@code "format":
 * "NAME VERSION"} in JSON, {@code # NAME VERSION ...} in TDAT's {@code event.time}); version 1 of each format is
 * read; anything else, a truncated file or a file without the fields its figures need is refused with one line
 * naming the file. Only the documented JSON is read, never the analyses' classes.
 */
public final class ResultReader {
    private static final ObjectMapper MAPPER = new ObjectMapper();

    private ResultReader() {
    }

    /** Reads one file: one result, or a study's manifest with the results it lists and its runs. */
    public static Inputs.Entry read(Path file) {
        byte[] head = new byte[1];
        try (InputStream in = Files.newInputStream(file)) {
            int c;
            do {
                c = in.read();
            } while (c == ' ' || c == '\n' || c == '\r' || c == '\t');
            if (c < 0) {
                throw new BadResultException(file + ": empty file, not a dsmscope result");
            }
            head[0] = (byte) c;
        } catch (NoSuchFileException e) {
            throw new BadResultException(file + ": no such file");
        } catch (IOException e) {
            throw new BadResultException(file + ": cannot read: " + e.getMessage());
        }
        if (head[0] == '#') {
            return new Inputs.Entry(List.of(readTime(file)), null);
        }
        if (head[0] != '{') {
            throw new BadResultException(file + ": not a dsmscope result (neither JSON nor a TDAT event.time file)");
        }
        JsonNode root;
        try {
            root = MAPPER.readTree(file.toFile());
        } catch (JsonProcessingException e) {
            JsonLocation l = e.getLocation();
            throw new BadResultException(file + ": " + (e.getOriginalMessage().contains("end-of-input")
                    ? "truncated JSON" : "not valid JSON") + (l == null ? "" : " at line " + l.getLineNr()
                    + " column " + l.getColumnNr()) + ": " + e.getOriginalMessage().split("\n")[0]);
        } catch (IOException e) {
            throw new BadResultException(file + ": cannot read: " + e.getMessage());
        }
        JsonNode f = root.get("format");
        if (f == null || !f.isTextual()) {
            throw new BadResultException(file + ": no \"format\" field; not a dsmscope result");
        }
        Kind kind = kindOf(file, f.asText());
        if (kind == Kind.STUDY) {
            return StudyManifest.read(file, root);
        }
        return new Inputs.Entry(List.of(result(file, kind, root, Result.programOf(file))), null);
    }

    /** The kind named by a format line's text {@code NAME VERSION}; refuses unknown names and versions. */
    static Kind kindOf(Path file, String format) {
        String[] parts = format.trim().split("\\s+");
        Kind kind = Kind.of(parts[0]);
        if (kind == null) {
            throw new BadResultException(file + ": unknown format '" + format + "' (the report reads "
                    + "dsmscope-ciat-json, dsmscope-cdat, dsmscope-sweep, dsmscope-tdat, dsmscope-tdat-time,"
                    + " dsmscope-explain and dsmscope-study, version 1)");
        }
        if (parts.length < 2 || !parts[1].equals("1")) {
            throw new BadResultException(file + ": format " + parts[0] + " version "
                    + (parts.length < 2 ? "missing" : parts[1]) + " is not supported (the report reads version 1)");
        }
        return kind;
    }

    /** A result of a JSON kind, its fields checked. */
    static Result result(Path file, Kind kind, JsonNode root, String program) {
        int p;
        switch (kind) {
            case CIAT:
                need(file, root, "processors", "aggregate/accesses", "aggregate/communication/matrix",
                        "aggregate/accessAge/cdf", "aggregate/concurrency/busy", "aggregate/memory", "phases");
                p = root.get("processors").asInt();
                break;
            case CDAT:
                need(file, root, "replayProcessors", "config", "aggregate/streams/data", "aggregate/byType",
                        "aggregate/stateTable/rows", "aggregate/processorActivity");
                p = root.get("replayProcessors").asInt();
                break;
            case SWEEP:
                need(file, root, "configurations");
                if (root.get("configurations").size() == 0) {
                    throw new BadResultException(file + ": a sweep without configurations");
                }
                for (JsonNode c : root.get("configurations")) {
                    need(file, c, "name", "varied", "results/replayProcessors", "results/aggregate/streams/data");
                }
                p = root.get("configurations").get(0).path("results").path("replayProcessors").asInt();
                break;
            case TDAT:
                need(file, root, "processors", "binWidth", "events", "density");
                p = root.get("processors").asInt();
                break;
            case EXPLAIN:
                need(file, root, "granularity", "unitSize", "processors", "totalCost", "byCause", "byDataStructure",
                        "bySourceLine", "units");
                p = root.get("processors").asInt();
                break;
            default:
                throw new BadResultException(file + ": format " + kind.format + " is not JSON");
        }
        return new Result(file, kind, program, p, root, 0, null);
    }

    private static void need(Path file, JsonNode root, String... paths) {
        for (String path : paths) {
            JsonNode n = root;
            for (String part : path.split("/")) {
                n = n == null ? null : n.get(part);
            }
            if (n == null || n.isNull()) {
                throw new BadResultException(file + ": field " + path.replace('/', '.') + " missing");
            }
        }
    }

    /** TDAT's {@code event.time}: {@code # dsmscope-tdat-time 1 bin B processors P}, then {@code start count}. */
    static Result readTime(Path file) {
        List<Long> counts = new ArrayList<>();
        long bin;
        int p;
        try (BufferedReader r = Files.newBufferedReader(file, StandardCharsets.US_ASCII)) {
            String first = r.readLine();
            String[] h = first.trim().split("\\s+");
            if (h.length < 2 || !h[0].equals("#")) {
                throw new BadResultException(file + ": line 1: not a format line");
            }
            Kind k = kindOf(file, h[1] + (h.length > 2 ? " " + h[2] : ""));
            if (k != Kind.TDAT_TIME || h.length != 7 || !h[3].equals("bin") || !h[5].equals("processors")) {
                throw new BadResultException(file + ": line 1: expected '# dsmscope-tdat-time 1 bin B processors P'");
            }
            try {
                bin = Long.parseLong(h[4]);
                p = Integer.parseInt(h[6]);
            } catch (NumberFormatException e) {
                throw new BadResultException(file + ": line 1: bin width and processors must be numbers");
            }
            String line;
            int n = 1;
            while ((line = r.readLine()) != null) {
                n++;
                String[] f = line.trim().split("\\s+");
                try {
                    if (f.length != 2 || Long.parseLong(f[0]) != bin * counts.size()) {
                        throw new BadResultException(file + ": line " + n + ": expected 'bin_start events' with bin_start "
                                + bin * counts.size());
                    }
                    counts.add(Long.parseLong(f[1]));
                } catch (NumberFormatException e) {
                    throw new BadResultException(file + ": line " + n + ": not a number: " + line);
                }
            }
        } catch (IOException e) {
            throw new BadResultException(file + ": cannot read: " + e.getMessage());
        }
        long[] bins = counts.stream().mapToLong(Long::longValue).toArray();
        return new Result(file, Kind.TDAT_TIME, Result.programOf(file), p, null, bin, bins);
    }
}
