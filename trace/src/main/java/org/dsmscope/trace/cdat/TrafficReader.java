package org.dsmscope.trace.cdat;

import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import org.dsmscope.trace.BadInputException;

/**
 * Reads a CDAT traffic trace written by {@link TrafficWriter} or by the seed's CDAT (Appendix C), streaming: one
 * {@link Record}, reused, per line. A general record's sharing list may have any length up to its {@code -1} (SPEC
 * §6: the seed's own example is shorter than its configuration). Bad input gives a {@link BadInputException} naming
 * the file, the line and what is wrong.
 */
public final class TrafficReader {
    /** One record; the reader reuses it: never keep a reference. */
    public static final class Record {
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
        BufferedReader in;
        try {
            in = Files.newBufferedReader(file, StandardCharsets.US_ASCII);
        } catch (NoSuchFileException e) {
            throw new BadInputException(file + ": no such CDAT trace file");
        }
        Record r = new Record();
        long n = 0;
        try (in) {
            String line;
            while ((line = in.readLine()) != null) {
                n++;
                if (line.isEmpty()) {
                    continue;
                }
                String[] t = line.trim().split(" +");
                if (general) {
                    parseGeneral(file, n, t, r);
                } else {
                    parseDetailed(file, n, t, r);
                }
                consumer.record(r);
            }
        }
        return n;
    }

    private static void parseDetailed(Path file, long line, String[] t, Record r) {
        if (t.length != 7) {
            throw bad(file, line, "a detailed record has 7 fields (clock addr code and four more), found "
                    + t.length);
        }
        common(file, line, t, r);
        if (r.code >= 91) {
            throw bad(file, line, "status code " + r.code + " belongs in a general trace");
        }
    }

    private static void parseGeneral(Path file, long line, String[] t, Record r) {
        if (t.length < 9 || !t[t.length - 1].equals("-1")) {
            throw bad(file, line, "a general record is 'clock addr code proc node bank hnode status sharing_list"
                    + " -1'");
        }
        common(file, line, t, r);
        r.status = (int) num(file, line, t[7], "status");
        if (r.status < 0 || r.status > 4) {
            throw bad(file, line, "status " + r.status + " out of range (1..4, 0 in a status record)");
        }
        int len = t.length - 9;
        if (r.sharing.length < len) {
            r.sharing = new byte[len];
        }
        for (int i = 0; i < len; i++) {
            String s = t[8 + i];
            if (!s.equals("0") && !s.equals("1")) {
                throw bad(file, line, "sharing list entry " + (i + 1) + " is '" + s + "', expected 0 or 1");
            }
            r.sharing[i] = (byte) (s.charAt(0) - '0');
        }
        r.sharingLength = len;
    }

    private static void common(Path file, long line, String[] t, Record r) {
        r.clock = num(file, line, t[0], "clock");
        r.addr = num(file, line, t[1], "addr");
        long code = num(file, line, t[2], "code");
        if (code < 0 || code > Integer.MAX_VALUE || !Txn.valid((int) code)) {
            throw bad(file, line, "unknown transaction code " + t[2]);
        }
        r.code = (int) code;
        for (int i = 0; i < 4; i++) {
            r.f[i] = (int) num(file, line, t[3 + i], "field " + (4 + i));
        }
    }

    private static long num(Path file, long line, String s, String what) {
        try {
            return Long.parseLong(s);
        } catch (NumberFormatException e) {
            throw bad(file, line, what + " '" + s + "' is not a decimal number");
        }
    }

    private static BadInputException bad(Path file, long line, String what) {
        return new BadInputException(file + ": line " + line + ": " + what);
    }
}
