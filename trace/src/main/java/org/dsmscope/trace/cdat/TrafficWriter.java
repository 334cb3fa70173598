package org.dsmscope.trace.cdat;

import java.io.Closeable;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.dsmscope.trace.OutputFile;

/**
 * Writes one CDAT traffic trace (seed 000 Appendix C), byte for byte as there: ASCII, one record per line, fields
 * in decimal separated by one space, no header. A general record is {@code clock addr code proc node bank hnode
 * status sharing_list -1}; a detailed record is {@code clock addr code} and four numbers whose order the code's
 * class fixes ({@link Txn#fromMemory}). The file is written under {@code NAME.partial} and renamed when {@link
 * #close} completes ({@link OutputFile}); {@link #abort} discards it. No allocation per record.
 */
public final class TrafficWriter implements Closeable {
    private static final int CAPACITY = 1 << 16;
    private final Path path;
    private final Path partial;
    private final OutputStream out;
    private final byte[] buf = new byte[CAPACITY];
    private final byte[] digits = new byte[20];
    private int pos;
    private long records;
    private boolean closed;

    /** Opens {@code path} for writing (through its partial sibling). */
    public TrafficWriter(Path path) {
        this.path = path;
        this.partial = OutputFile.partial(path);
        try {
            this.out = Files.newOutputStream(partial);
        } catch (IOException e) {
            throw new UncheckedIOException(path + ": cannot write: " + e.getMessage(), e);
        }
    }

    /** The file's final name. */
    public Path path() {
        return path;
    }

    /** Records written so far. */
    public long records() {
        return records;
    }

    /** A detailed-trace record: {@code clock addr code a b c d}. */
    public void detailed(long clock, long addr, int code, int a, int b, int c, int d) {
        ensure(7 * 21);
        num(clock);
        space();
        num(addr);
        space();
        num(code);
        space();
        num(a);
        space();
        num(b);
        space();
        num(c);
        space();
        num(d);
        buf[pos++] = '\n';
        records++;
    }

    /**
     * A general-trace record: {@code clock addr code proc node bank hnode status}, then {@code processors} sharing
     * flags (bit g of {@code sharers}, node-major global processor numbers), then {@code -1}.
     */
    public void general(long clock, long addr, int code, int proc, int node, int bank, int hnode, int status,
            long[] sharers, int processors) {
        ensure(8 * 21 + 2 * processors + 4);
        num(clock);
        space();
        num(addr);
        space();
        num(code);
        space();
        num(proc);
        space();
        num(node);
        space();
        num(bank);
        space();
        num(hnode);
        space();
        num(status);
        for (int g = 0; g < processors; g++) {
            buf[pos++] = ' ';
            buf[pos++] = (byte) ((sharers[g >>> 6] >>> g & 1) != 0 ? '1' : '0');
        }
        buf[pos++] = ' ';
        buf[pos++] = '-';
        buf[pos++] = '1';
        buf[pos++] = '\n';
        records++;
    }

    private void space() {
        buf[pos++] = ' ';
    }

    private void num(long v) {
        if (v < 0) {
            if (v == Long.MIN_VALUE) {
                byte[] s = Long.toString(v).getBytes(StandardCharsets.US_ASCII);
                System.arraycopy(s, 0, buf, pos, s.length);
                pos += s.length;
                return;
            }
            buf[pos++] = '-';
            v = -v;
        }
        int n = 0;
        do {
            digits[n++] = (byte) ('0' + v % 10);
            v /= 10;
        } while (v != 0);
        while (n > 0) {
            buf[pos++] = digits[--n];
        }
    }

    private void ensure(int room) {
        if (pos + room > buf.length) {
            flush();
            if (room > buf.length) {
                throw new IllegalArgumentException("record longer than the buffer");
            }
        }
    }

    private void flush() {
        try {
            out.write(buf, 0, pos);
        } catch (IOException e) {
            abort();
            throw new UncheckedIOException(path + ": cannot write: " + e.getMessage(), e);
        }
        pos = 0;
    }

    /** Writes the rest and gives the file its name. */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        flush();
        closed = true;
        try {
            out.close();
        } catch (IOException e) {
            OutputFile.discard(partial);
            throw new UncheckedIOException(path + ": cannot write: " + e.getMessage(), e);
        }
        OutputFile.commit(partial, path);
    }

    /** Abandons the file: nothing appears under its name. */
    public void abort() {
        if (closed) {
            return;
        }
        closed = true;
        try {
            out.close();
        } catch (IOException e) {
            // the error that made the file abandoned is the one to report
        }
        OutputFile.discard(partial);
    }
}
