package org.dsmscope.report;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;

/**
 * One result file read for the report: its kind (from its format line), the program it belongs to, the number of
 * processors it ran on (the x axis of a study), and its content (the JSON tree, or TDAT's bins).
 */
public final class Result {
    /** The file as given. */
    public final Path file;
    /** The kind, read from the format line. */
    public final Kind kind;
    /** The program (from a study's manifest, else from the file name). */
    public final String program;
    /**
     * The number of processors the figures draw it at (their x axis): a study's thread count for the run, else the
     * run's processors (CIAT {@code processors}, CDAT {@code replayProcessors}, TDAT {@code p}).
     */
    public final int processors;
    /** The processors of the run as the result says (the p of the seed's speedup formula). */
    final int ownProcessors;
    /** The JSON tree (null for {@link Kind#TDAT_TIME}). */
    final JsonNode json;
    /** {@link Kind#TDAT_TIME}: the bin width and the events per bin. */
    final long binWidth;
    final long[] bins;

    Result(Path file, Kind kind, String program, int processors, JsonNode json, long binWidth, long[] bins) {
        this(file, kind, program, processors, processors, json, binWidth, bins);
    }

    private Result(Path file, Kind kind, String program, int processors, int own, JsonNode json, long binWidth,
            long[] bins) {
        this.file = file;
        this.kind = kind;
        this.program = program;
        this.processors = processors;
        this.ownProcessors = own;
        this.json = json;
        this.binWidth = binWidth;
        this.bins = bins;
    }

    /** The same result as a study's run: its program and its thread count (the x axis) from the manifest. */
    Result inStudy(String p, int threads) {
        return new Result(file, kind, p, threads, ownProcessors, json, binWidth, bins);
    }

    /**
     * The program a result file belongs to when nothing names it: the file name without {@code .json}, without a
     * kind suffix ({@code .ciat}, {@code .cdat}, {@code .tdat}, {@code .sweep}, {@code .time},
     * {@code .explain}, a study's {@code .global} access-age run) and without a trailing
     * thread count, so {@code matmul.4.ciat.json} and {@code matmul.16.cdat.json} are both {@code matmul}.
     */
    static String programOf(Path file) {
        String n = file.getFileName().toString();
        n = n.replaceAll("(?i)\\.json$", "");
        String before;
        do {
            before = n;
            n = n.replaceAll("\\.(ciat|cdat|tdat|sweep|time|study|explain|global|[0-9]+)$", "");
        } while (!n.equals(before));
        return n.isEmpty() ? file.getFileName().toString() : n;
    }
}
