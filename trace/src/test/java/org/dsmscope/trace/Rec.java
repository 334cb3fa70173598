package org.dsmscope.trace;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** A plain record value for tests: the simple reference the streaming reader and writer are checked against. */
record Rec(int kind, int memKind, int size, int reg, long a, long b, int callType, long[] call) {

    static Rec load(int size, int reg, long addr) {
        return new Rec(RecordKind.MEMORY, MemType.LOAD, size, reg, addr, 0, 0, null);
    }

    static Rec store(int size, int reg, long addr) {
        return new Rec(RecordKind.MEMORY, MemType.STORE, size, reg, addr, 0, 0, null);
    }

    static Rec call(int type, long start, long end, long a1, long a2, long a3, long a4) {
        return new Rec(RecordKind.CALL, 0, 0, 0, 0, 0, type, new long[] {start, end, a1, a2, a3, a4});
    }

    static Rec procStart(long addr) {
        return new Rec(RecordKind.PROC_START, 0, 0, 0, addr, addr, 0, null);
    }

    static Rec branch(long source, long target) {
        return new Rec(RecordKind.BRANCH, 0, 0, 0, target, source, 0, null);
    }

    static Rec procCall(long source, long target) {
        return new Rec(RecordKind.PROC_CALL, 0, 0, 0, target, source, 0, null);
    }

    static Rec fetch(long addr, int size) {
        return new Rec(RecordKind.FETCH, 0, size, 0, addr, 0, 0, null);
    }

    /** Writes this record with {@code w}. */
    void writeTo(TraceWriter w) {
        switch (kind) {
            case RecordKind.MEMORY: w.memory(memKind, size, reg, a); break;
            case RecordKind.CALL: w.call(callType, call[0], call[1], call[2], call[3], call[4], call[5]); break;
            case RecordKind.PROC_START: w.procStart(a); break;
            case RecordKind.BRANCH: w.branch(b, a); break;
            case RecordKind.PROC_CALL: w.procCall(b, a); break;
            case RecordKind.FETCH: w.fetch(a, size); break;
            default: throw new IllegalStateException();
        }
    }

    /** The current record of {@code r} as a value. */
    /** Reference decoding of a batch word, straight from the format table. */
    static Rec word(long w, long hi) {
        int f1 = (int) (w >>> 32);
        long a = hi | (w & 0xFFFF_FFFFL);
        switch (TraceReader.wordKind(w)) {
            case RecordKind.MEMORY:
                int size = MemType.bytes(f1);
                int reg = (f1 >>> 8) & 0xF;
                return (f1 & 0xF) == MemType.STORE ? Rec.store(size, reg, a) : Rec.load(size, reg, a);
            case RecordKind.PROC_START: return Rec.procStart(a);
            case RecordKind.BRANCH: return Rec.branch(hi | (f1 & SmaitFormat.BRANCH_FIELD_MASK), a);
            case RecordKind.PROC_CALL: return Rec.procCall(hi | (f1 & SmaitFormat.BRANCH_FIELD_MASK), a);
            case RecordKind.FETCH: return Rec.fetch(a, f1 & 0xFFFF);
            default: throw new AssertionError("batch word of kind " + TraceReader.wordKind(w));
        }
    }

    static Rec of(TraceReader r) {
        switch (r.kind()) {
            case RecordKind.MEMORY:
                return new Rec(RecordKind.MEMORY, r.isStore() ? MemType.STORE : MemType.LOAD, r.size(), r.regType(),
                        r.address(), 0, 0, null);
            case RecordKind.CALL:
                return call(r.callType(), r.startTime(), r.endTime(), r.arg(1), r.arg(2), r.arg(3), r.arg(4));
            case RecordKind.PROC_START: return procStart(r.address());
            case RecordKind.BRANCH: return branch(r.source(), r.target());
            case RecordKind.PROC_CALL: return procCall(r.source(), r.target());
            case RecordKind.FETCH: return fetch(r.address(), r.size());
            default: throw new IllegalStateException("kind " + r.kind());
        }
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Rec && toString().equals(o.toString());
    }

    @Override
    public int hashCode() {
        return toString().hashCode();
    }

    @Override
    public String toString() {
        switch (kind) {
            case RecordKind.CALL:
                StringBuilder s = new StringBuilder("call " + CallType.name(callType));
                for (long v : call) {
                    s.append(' ').append(v & 0xFFFFFFFFL);
                }
                return s.toString();
            case RecordKind.MEMORY:
                return (memKind == MemType.STORE ? "store " : "load ") + size + " " + reg + " " + Long.toHexString(a);
            default:
                return RecordKind.name(kind) + " " + size + " " + Long.toHexString(b) + " " + Long.toHexString(a);
        }
    }

    /** True if the record has an address beyond 32 bits (or a size only a wide record holds). */
    static boolean needs64(Rec r) {
        return (r.a >>> 32) != 0 || (r.b >>> 32) != 0;
    }

    static void write(Path file, TraceWriter.Options o, List<Rec> recs) throws IOException {
        try (TraceWriter w = TraceWriter.create(file, o)) {
            for (Rec r : recs) {
                r.writeTo(w);
            }
        }
    }

    static List<Rec> readAll(Path file, TraceReader.Options o) throws IOException {
        List<Rec> out = new ArrayList<>();
        try (TraceReader r = TraceReader.open(file, o)) {
            while (r.next() != RecordKind.EOF) {
                out.add(of(r));
            }
        }
        return out;
    }
}
