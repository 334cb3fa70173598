package org.dsmscope.report;

/** The kinds of result the report reads, each named by the format line its file starts with. */
public enum Kind {
    /** CIAT's JSON (ciat/README.md). */
    CIAT("dsmscope-ciat-json"),
    /** CDAT's JSON (cdat/README.md). */
    CDAT("dsmscope-cdat"),
    /** The sweep's JSON (cdat/README.md). */
    SWEEP("dsmscope-sweep"),
    /** TDAT's JSON (tdat/README.md). */
    TDAT("dsmscope-tdat"),
    /** TDAT's events per bin, {@code event.time} (tdat/README.md). */
    TDAT_TIME("dsmscope-tdat-time"),
    /** EXPLAIN's JSON (explain/README.md). */
    EXPLAIN("dsmscope-explain"),
    /** A study's manifest (report/README.md). */
    STUDY("dsmscope-study");

    /** The format name on the file's format line. */
    public final String format;

    Kind(String format) {
        this.format = format;
    }

    /** The kind of a format name, or null. */
    static Kind of(String format) {
        for (Kind k : values()) {
            if (k.format.equals(format)) {
                return k;
            }
        }
        return null;
    }
}
