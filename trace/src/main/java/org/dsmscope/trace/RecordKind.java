package org.dsmscope.trace;

/**
 * The kinds of record {@link TraceReader#next()} returns (seed 000 Appendix A, plus dsmscope's extensions).
 * Plain {@code int} constants so the reader's hot path never allocates.
 */
public final class RecordKind {
    /** End of the trace. */
    public static final int EOF = -1;
    /** Memory-access record (A.2), or a wide memory-access extension record. */
    public static final int MEMORY = 1;
    /** Call record (A.1): six simple records reassembled into one. */
    public static final int CALL = 2;
    /** Procedure start branch record (A.3, top hex digit 4). */
    public static final int PROC_START = 3;
    /** Taken branch record (A.3, top hex digit 8). */
    public static final int BRANCH = 4;
    /** Procedure call branch record (A.3, top hex digit C). */
    public static final int PROC_CALL = 5;
    /** Instruction-fetch extension record (variable-length instructions, SPEC §2). */
    public static final int FETCH = 6;

    private RecordKind() {
    }

    /** A short lower-case name for a kind, as {@code dump} prints it. */
    public static String name(int kind) {
        switch (kind) {
            case EOF: return "eof";
            case MEMORY: return "memory";
            case CALL: return "call";
            case PROC_START: return "proc_start";
            case BRANCH: return "branch";
            case PROC_CALL: return "proc_call";
            case FETCH: return "fetch";
            default: return "kind" + kind;
        }
    }
}
