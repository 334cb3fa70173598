package org.dsmscope.trace;

import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Reads an ASCII text file of records line by line into one reused byte buffer and splits each line into fields
 * (separated by spaces or tabs; a CR before the LF is ignored), without allocating per line: the text formats of
 * the analyses' traces (CDAT's traffic traces, CIAT's event trace) are read through it at hundreds of megabytes per
 * second. Fields are parsed in place ({@link #number}, {@link #fieldEquals}); {@link #field} and {@link #line}
 * allocate and are meant for error messages.
 */
public final class AsciiLines implements Closeable {
    private final InputStream in;
    private byte[] buf = new byte[1 << 16];
    private int pos;
    private int limit;
    private boolean eof;
    private int lineStart;
    private int lineEnd;
    private long lineNumber;
    private int[] starts = new int[16];
    private int[] ends = new int[16];
    private int fields;

    /** Reads {@code in} (closed by {@link #close}). */
    public AsciiLines(InputStream in) {
        this.in = in;
    }

    /**
     * Advances to the next line (empty lines included: then {@link #fields()} is 0); false at the end of the input.
     */
    public boolean next() throws IOException {
        int nl = find();
        if (nl < 0) {
            return false;
        }
        lineNumber++;
        lineStart = pos;
        lineEnd = nl;
        pos = nl < limit ? nl + 1 : limit;
        if (lineEnd > lineStart && buf[lineEnd - 1] == '\r') {
            lineEnd--;
        }
        split();
        return true;
    }

    /** The index of the LF ending the line at {@link #pos} ({@link #limit} for a last line without one), or -1. */
    private int find() throws IOException {
        int from = pos;
        for (;;) {
            for (int i = from; i < limit; i++) {
                if (buf[i] == '\n') {
                    return i;
                }
            }
            from = limit;
            if (eof) {
                return pos < limit ? limit : -1;
            }
            // keep the partial line, make room, read more
            if (pos > 0) {
                System.arraycopy(buf, pos, buf, 0, limit - pos);
                from -= pos;
                limit -= pos;
                pos = 0;
            }
            if (limit == buf.length) {
                buf = Arrays.copyOf(buf, buf.length * 2);
            }
            int n = in.read(buf, limit, buf.length - limit);
            if (n < 0) {
                eof = true;
            } else {
                limit += n;
            }
        }
    }

    private void split() {
        fields = 0;
        int i = lineStart;
        while (i < lineEnd) {
            while (i < lineEnd && (buf[i] == ' ' || buf[i] == '\t')) {
                i++;
            }
            if (i == lineEnd) {
                break;
            }
            int s = i;
            while (i < lineEnd && buf[i] != ' ' && buf[i] != '\t') {
                i++;
            }
            if (fields == starts.length) {
                starts = Arrays.copyOf(starts, fields * 2);
                ends = Arrays.copyOf(ends, fields * 2);
            }
            starts[fields] = s;
            ends[fields] = i;
            fields++;
        }
    }

    /** Number of the current line, from 1. */
    public long lineNumber() {
        return lineNumber;
    }

    /** Number of fields of the current line. */
    public int fields() {
        return fields;
    }

    /** True if field {@code i} is a decimal integer (optional leading '-') that fits a long. */
    public boolean isNumber(int i) {
        int s = starts[i];
        int e = ends[i];
        if (buf[s] == '-') {
            s++;
        }
        if (s == e || e - s > 19) {
            return false;
        }
        for (int k = s; k < e; k++) {
            if (buf[k] < '0' || buf[k] > '9') {
                return false;
            }
        }
        return e - s < 19 || field(i).replace("-", "").compareTo("9223372036854775807") <= 0;
    }

    /** Field {@code i} as a decimal long; check {@link #isNumber} first. */
    public long number(int i) {
        int s = starts[i];
        int e = ends[i];
        boolean neg = buf[s] == '-';
        if (neg) {
            s++;
        }
        long v = 0;
        for (int k = s; k < e; k++) {
            v = v * 10 + (buf[k] - '0');
        }
        return neg ? -v : v;
    }

    /** True if field {@code i} is exactly {@code s} (ASCII). */
    public boolean fieldEquals(int i, String s) {
        int len = ends[i] - starts[i];
        if (len != s.length()) {
            return false;
        }
        for (int k = 0; k < len; k++) {
            if (buf[starts[i] + k] != s.charAt(k)) {
                return false;
            }
        }
        return true;
    }

    /** The first byte of field {@code i}. */
    public int firstByte(int i) {
        return buf[starts[i]];
    }

    /** Length of field {@code i} in bytes. */
    public int length(int i) {
        return ends[i] - starts[i];
    }

    /** Field {@code i} as a string (allocates). */
    public String field(int i) {
        return new String(buf, starts[i], ends[i] - starts[i], StandardCharsets.ISO_8859_1);
    }

    /** The current line as a string (allocates). */
    public String line() {
        return new String(buf, lineStart, lineEnd - lineStart, StandardCharsets.ISO_8859_1);
    }

    @Override
    public void close() throws IOException {
        in.close();
    }
}
