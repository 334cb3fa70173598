package org.dsmscope.trace;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteOrder;

/**
 * The {@code dsmscope dump} text format, version 1: one line per record of a SMAIT trace file (seed 000
 * Appendix A, extensions of {@link SmaitFormat}), and the per-type counts of {@code --summary}. The format is
 * documented in the trace module's README ("dsmscope-dump 1" and "dsmscope-dump-summary 1").
 */
public final class TraceDump {
    /** First line of a record dump. */
    public static final String FORMAT = "dsmscope-dump 1";
    /** First line of a summary. */
    public static final String SUMMARY_FORMAT = "dsmscope-dump-summary 1";

    private TraceDump() {
    }

    /** The {@code file} line describing an opened trace file. */
    public static String fileLine(TraceReader r) {
        String fmt = !r.extended() ? "classic" : r.addr64() ? "extended+addr64" : "extended";
        return "file " + r.name() + " order " + (r.order() == ByteOrder.BIG_ENDIAN ? "big" : "little")
                + " format " + fmt + " codec " + r.codec().name().toLowerCase();
    }

    /** Appends the current record of {@code r} as one line (without the line end) to {@code s}. */
    public static void formatRecord(TraceReader r, StringBuilder s) {
        s.append(r.offset()).append(' ');
        switch (r.kind()) {
            case RecordKind.MEMORY:
                s.append(r.isStore() ? "store " : "load ").append(r.size()).append(' ')
                        .append(MemType.regName(r.regType())).append(" 0x").append(Long.toHexString(r.address()));
                if (r.wide()) {
                    s.append(" wide");
                }
                break;
            case RecordKind.CALL:
                s.append("call ").append(CallType.name(r.callType())).append(" start ").append(r.startTime())
                        .append(" end ").append(r.endTime()).append(" args ").append(r.arg(1)).append(' ')
                        .append(r.arg(2)).append(' ').append(r.arg(3)).append(' ').append(r.arg(4));
                break;
            case RecordKind.PROC_START:
                s.append("proc_start 0x").append(Long.toHexString(r.address()));
                break;
            case RecordKind.BRANCH:
            case RecordKind.PROC_CALL:
                s.append(RecordKind.name(r.kind())).append(" 0x").append(Long.toHexString(r.source()))
                        .append(" -> 0x").append(Long.toHexString(r.target()));
                break;
            case RecordKind.FETCH:
                s.append("fetch ").append(r.size()).append(" 0x").append(Long.toHexString(r.address()));
                break;
            default:
                throw new IllegalStateException("no current record (kind " + r.kind() + ")");
        }
    }

    /** Writes every record of {@code r} (without the format line), then an {@code end} line; returns records. */
    public static long dump(TraceReader r, Appendable out) {
        StringBuilder s = new StringBuilder(128);
        try {
            out.append(fileLine(r)).append('\n');
            while (r.next() != RecordKind.EOF) {
                s.setLength(0);
                formatRecord(r, s);
                s.append('\n');
                out.append(s);
            }
            out.append("end records ").append(Long.toString(r.records())).append(" skipped ")
                    .append(Long.toString(r.skipped())).append('\n');
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write dump: " + e.getMessage(), e);
        }
        return r.records();
    }

    /** Counts of records per type, as {@code dump --summary} prints them. */
    public static final class Summary {
        private long loads;
        private long stores;
        private long procStarts;
        private long branches;
        private long procCalls;
        private long fetches;
        private long skipped;
        private final long[] calls = new long[256];

        /** Counts every remaining record of {@code r}. */
        public Summary count(TraceReader r) {
            for (int k = r.next(); k != RecordKind.EOF; k = r.next()) {
                switch (k) {
                    case RecordKind.MEMORY:
                        if (r.isStore()) {
                            stores++;
                        } else {
                            loads++;
                        }
                        break;
                    case RecordKind.CALL: calls[r.callType()]++; break;
                    case RecordKind.PROC_START: procStarts++; break;
                    case RecordKind.BRANCH: branches++; break;
                    case RecordKind.PROC_CALL: procCalls++; break;
                    case RecordKind.FETCH: fetches++; break;
                    default: break;
                }
            }
            skipped += r.skipped();
            return this;
        }

        /** Adds another summary's counts to this one. */
        public Summary add(Summary o) {
            loads += o.loads;
            stores += o.stores;
            procStarts += o.procStarts;
            branches += o.branches;
            procCalls += o.procCalls;
            fetches += o.fetches;
            skipped += o.skipped;
            for (int i = 0; i < calls.length; i++) {
                calls[i] += o.calls[i];
            }
            return this;
        }

        /** Call records of one type. */
        public long calls(int type) {
            return calls[type];
        }

        /** All records (a call record counts once). */
        public long records() {
            long n = loads + stores + procStarts + branches + procCalls + fetches;
            for (long c : calls) {
                n += c;
            }
            return n;
        }

        /** Bad records skipped. */
        public long skipped() {
            return skipped;
        }

        /** The counts as lines {@code NAME COUNT} (without the format and file lines). */
        public String format() {
            long callTotal = 0;
            StringBuilder s = new StringBuilder();
            for (long c : calls) {
                callTotal += c;
            }
            s.append("memory ").append(loads + stores).append('\n');
            s.append("memory.load ").append(loads).append('\n');
            s.append("memory.store ").append(stores).append('\n');
            s.append("call ").append(callTotal).append('\n');
            for (int t = 0; t < calls.length; t++) {
                if (calls[t] != 0) {
                    s.append("call.").append(CallType.name(t)).append(' ').append(calls[t]).append('\n');
                }
            }
            s.append("proc_start ").append(procStarts).append('\n');
            s.append("branch ").append(branches).append('\n');
            s.append("proc_call ").append(procCalls).append('\n');
            s.append("fetch ").append(fetches).append('\n');
            s.append("records ").append(records()).append('\n');
            s.append("skipped ").append(skipped).append('\n');
            return s.toString();
        }
    }
}
