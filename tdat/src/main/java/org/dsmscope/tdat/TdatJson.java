package org.dsmscope.tdat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import org.dsmscope.trace.OutputFile;

/**
 * TDAT's figures as JSON ({@code --json FILE}), format {@value #FORMAT}: the figures of the standard output, named
 * as in the module README ("JSON"); the bin counts are not repeated (they are in {@code event.time}). Fields come in
 * a fixed order, so the same figures give the same bytes.
 */
public final class TdatJson {
    /** Format name and version, the value of the top-level "format" field. */
    public static final String FORMAT = "dsmscope-tdat 1";
    private static final ObjectMapper MAPPER = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    private TdatJson() {
    }

    /** Writes the JSON document to {@code file}, through its partial sibling. */
    public static void write(TdatResult r, Path file) {
        ObjectNode tree = tree(r);
        OutputFile.write(file, tmp -> MAPPER.writeValue(tmp.toFile(), tree));
    }

    /** The JSON document as a string. */
    public static String toJson(TdatResult r) {
        try {
            return MAPPER.writeValueAsString(tree(r));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The JSON tree. */
    public static ObjectNode tree(TdatResult r) {
        ObjectNode root = MAPPER.createObjectNode();
        root.put("format", FORMAT);
        ArrayNode inputs = root.putArray("inputs");
        for (Tdat.Input in : r.inputs) {
            ObjectNode o = inputs.addObject();
            o.put("file", in.file().toString());
            o.put("kind", in.kind().label());
            o.put("records", in.records());
            o.put("events", in.events());
        }
        ObjectNode sel = root.putObject("selection");
        if (r.selection.types() == null) {
            sel.putNull("types");
        } else {
            ArrayNode t = sel.putArray("types");
            r.selection.types().forEach(t::add);
        }
        sel.put("processors", r.selection.processors());
        sel.put("nodes", r.selection.nodes());
        root.put("binWidth", r.binWidth);
        root.put("processors", r.processors);
        root.put("events", r.events);
        root.put("bins", r.bins);
        root.put("nonEmptyBins", r.nonEmptyBins);
        boolean any = r.events > 0;
        rate(root, "averageRate", any, r.averageRate);
        rate(root, "minimumRate", any, r.minimumRate);
        rate(root, "maximumRate", any, r.maximumRate);
        rate(root, "standardDeviation", any, r.standardDeviation);
        root.put("rateClasses", r.rateBins);
        rate(root, "classWidth", any, r.classWidth());
        ArrayNode density = root.putArray("density");
        for (int k = 0; k < r.classes(); k++) {
            ObjectNode c = density.addObject();
            c.put("upperBound", r.upperBound(k));
            c.put("bins", r.classCount(k));
            c.put("density", r.density(k));
            c.put("distribution", r.distribution(k));
        }
        return root;
    }

    private static void rate(ObjectNode o, String name, boolean any, double v) {
        if (any) {
            o.put(name, v);
        } else {
            o.putNull(name);
        }
    }
}
