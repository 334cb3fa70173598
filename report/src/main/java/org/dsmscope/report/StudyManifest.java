package org.dsmscope.report;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * A study's manifest {@code study.json} (format {@code dsmscope-study 1}, report/README.md): the program, the
 * command, and per thread count whether its run succeeded (or why not) and the result files it wrote, named
 * relative to the manifest. {@code dsmscope study} writes it; the report reads it, its results as the program's,
 * and names the failed runs.
 */
public final class StudyManifest {
    /** One run of a study: its thread count, whether it succeeded, why not, its result files. */
    public record Run(int threads, boolean ok, String message, List<String> results) {
    }

    /** A study read back: program, command and runs. */
    public record Info(Path file, String program, String command, List<Run> runs) {
    }

    private StudyManifest() {
    }

    /** Writes a manifest (deterministic bytes: fields in a fixed order, two-space indentation). */
    public static void write(Path file, String program, List<String> command, List<Run> runs) throws IOException {
        ObjectMapper m = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
        ObjectNode root = m.createObjectNode();
        root.put("format", Kind.STUDY.format + " 1");
        root.put("program", program);
        ArrayNode cmd = root.putArray("command");
        command.forEach(cmd::add);
        ArrayNode rs = root.putArray("runs");
        for (Run r : runs) {
            ObjectNode o = rs.addObject();
            o.put("threads", r.threads);
            o.put("status", r.ok ? "ok" : "failed");
            if (r.message == null) {
                o.putNull("message");
            } else {
                o.put("message", r.message);
            }
            ArrayNode files = o.putArray("results");
            r.results.forEach(files::add);
        }
        Path tmp = file.resolveSibling(file.getFileName() + ".partial");
        Files.writeString(tmp, m.writeValueAsString(root) + "\n");
        Files.move(tmp, file, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
    }

    /** Reads a manifest's runs and the results it lists (each checked as any result file is). */
    static Inputs.Entry read(Path file, JsonNode root) {
        JsonNode program = root.get("program");
        JsonNode runs = root.get("runs");
        if (program == null || !program.isTextual() || runs == null || !runs.isArray()) {
            throw new BadResultException(file + ": a study manifest needs \"program\" and \"runs\"");
        }
        List<String> cmd = new ArrayList<>();
        root.path("command").forEach(n -> cmd.add(n.asText()));
        List<Run> rs = new ArrayList<>();
        List<Result> results = new ArrayList<>();
        Path dir = file.toAbsolutePath().getParent();
        for (JsonNode r : runs) {
            List<String> files = new ArrayList<>();
            for (JsonNode f : r.path("results")) {
                files.add(f.asText());
                for (Result res : ResultReader.read(dir.resolve(f.asText())).results()) {
                    results.add(res.inStudy(program.asText(), r.path("threads").asInt()));
                }
            }
            JsonNode msg = r.get("message");
            rs.add(new Run(r.path("threads").asInt(), "ok".equals(r.path("status").asText()),
                    msg == null || msg.isNull() ? null : msg.asText(), files));
        }
        return new Inputs.Entry(results, new Info(file, program.asText(), String.join(" ", cmd), rs));
    }
}
