package org.dsmscope.trace.cdat;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import org.dsmscope.trace.AsciiLines;
import org.dsmscope.trace.BadInputException;

/**
 * Reads a CDAT traffic trace written by {@link TrafficWriter} or by the seed's CDAT (Appendix C), streaming: one
 * {@link Record}, reused, per line. A general record's sharing list may have any length up to its {@code -1} (SPEC
 * §6: the seed's own example is shorter than its configuration). Bad input (a wrong field count, a field that is not
 * a decimal number, a negative clock, an unknown code) gives a {@link BadInputException} naming the file, the line and
 * what is wrong. Lines are split in place ({@link AsciiLines}): no allocation per record.
 */
public final class TrafficReader {
    /** One record; the reader reuses it: never keep a reference. */
    public static final class Record {
        /** The record's line in its file, from 1. */
        public long line;
        /** Pseudo clock. */
        public long clock;
        /** Line address. */
        public long addr;
        /** Transaction or status code. */
        public int code;
        /**
         * The four numbers after the code: general records proc, node, bank, hnode; detailed records in the order
         * of the code's class.
         */
        public final int[] f = new int[4];
        /** General records: line status (1 idle, 2 shared, 3 exclusive, 4 dirty; 0 for status records). */
        public int status;
        /** General records: the sharing list's entries (0 or 1), {@link #sharingLength} of them. */
        public byte[] sharing = new byte[128];
        /** Length of the sharing list. */
        public int sharingLength;
    }

    /** Receives each record. */
    @FunctionalInterface
    public interface Consumer {
        /** Called once per record, in file order. */
        void record(Record r);
    }

    private TrafficReader() {
    }

    /** Streams a general trace file; returns the number of records. */
    public static long readGeneral(Path file, Consumer consumer) throws IOException {
        return read(file, true, consumer);
    }

    /** Streams a detailed trace file; returns the number of records. */
    public static long readDetailed(Path file, Consumer consumer) throws IOException {
        return read(file, false, consumer);
    }

    private static long read(Path file, boolean general, Consumer consumer) throws IOException {
        InputStream in;
        org.dsmscope.trace.InputFile.check(file, null, "CDAT trace file", true);
        try {
            in = Files.newInputStream(file);
        } catch (NoSuchFileException e) {
            throw new BadInputException(file + ": no such CDAT trace file");
        }
        Record r = new Record();
        long n = 0;
        try (AsciiLines lines = new AsciiLines(in)) {
            while (lines.next()) {
                if (lines.fields() == 0) {
                    continue;
                }
                r.line = lines.lineNumber();
                if (general) {
                    parseGeneral(file, lines, r);
                } else {
                    parseDetailed(file, lines, r);
                }
                n++;
                consumer.record(r);
            }
        }
        return n;
    }

    private static void parseDetailed(Path file, AsciiLines t, Record r) {
        if (t.fields() != 7) {
            throw bad(file, t.lineNumber(), "a detailed record has 7 fields (clock addr code and four more), found "
                    + t.fields());
        }
        common(file, t, r);
        if (r.code >= 91) {
            throw bad(file, t.lineNumber(), "status code " + r.code + " belongs in a general trace");
        }
    }

    private static void parseGeneral(Path file, AsciiLines t, Record r) {
        int nf = t.fields();
        if (nf < 9 || !t.fieldEquals(nf - 1, "-1")) {
            throw bad(file, t.lineNumber(), "a general record is 'clock addr code proc node bank hnode status"
                    + " sharing_list -1'");
        }
        common(file, t, r);
        r.status = (int) num(file, t, 7, "status");
        if (r.status < 0 || r.status > 4) {
            throw bad(file, t.lineNumber(), "status " + r.status + " out of range (1..4, 0 in a status record)");
        }
        int len = nf - 9;
        if (r.sharing.length < len) {
            r.sharing = new byte[len];
        }
        for (int i = 0; i < len; i++) {
            int c = t.firstByte(8 + i);
            if (t.length(8 + i) != 1 || c != '0' && c != '1') {
                throw bad(file, t.lineNumber(), "sharing list entry " + (i + 1) + " is '" + t.field(8 + i)
                        + "', expected 0 or 1");
            }
            r.sharing[i] = (byte) (c - '0');
        }
        r.sharingLength = len;
    }

    private static void common(Path file, AsciiLines t, Record r) {
        r.clock = num(file, t, 0, "clock");
        if (r.clock < 0) {
            throw bad(file, t.lineNumber(), "clock " + r.clock + " is negative");
        }
        r.addr = num(file, t, 1, "addr");
        long code = num(file, t, 2, "code");
        if (code < 0 || code > Integer.MAX_VALUE || !Txn.valid((int) code)) {
            throw bad(file, t.lineNumber(), "unknown transaction code " + t.field(2));
        }
        r.code = (int) code;
        for (int i = 0; i < 4; i++) {
            long v = num(file, t, 3 + i, "field " + (4 + i));
            if (v < Integer.MIN_VALUE || v > Integer.MAX_VALUE) {
                throw bad(file, t.lineNumber(), "field " + (4 + i) + " '" + t.field(3 + i) + "' out of range");
            }
            r.f[i] = (int) v;
        }
    }

    private static long num(Path file, AsciiLines t, int i, String what) {
        if (!t.isNumber(i)) {
            throw bad(file, t.lineNumber(), what + " '" + t.field(i) + "' is not a decimal number");
        }
        return t.number(i);
    }

    private static BadInputException bad(Path file, long line, String what) {
        return new BadInputException(file + ": line " + line + ": " + what);
    }
}
