package org.dsmscope.tdat;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.dsmscope.trace.OutputFile;

/**
 * The {@code event.time} file (seed 000 §6, SPEC §7), format {@value #FORMAT}: a first line
 * {@code # dsmscope-tdat-time 1 bin BIN processors p}, then one line per bin, {@code bin_start events} (bin_start = k
 * × BIN, decimal), every bin from 0 to the last event's, empty ones included; only the first line when there is no
 * event. Written to {@code FILE.partial} and renamed when complete ({@link OutputFile}).
 */
public final class TimeFile {
    /** Format name and version. */
    public static final String FORMAT = "dsmscope-tdat-time 1";

    private TimeFile() {
    }

    /** Writes the bins of {@code bins} to {@code path}, {@code processors} the p of the run. */
    public static void write(Path path, Bins bins, int processors) {
        OutputFile.write(path, tmp -> {
            try (OutputStream out = new BufferedOutputStream(Files.newOutputStream(tmp), 1 << 16)) {
                write(out, bins, processors);
            }
        });
    }

    /** Writes the file's content to {@code out}. */
    public static void write(OutputStream out, Bins bins, int processors) throws IOException {
        out.write(("# " + FORMAT + " bin " + bins.width() + " processors " + processors + "\n")
                .getBytes(StandardCharsets.US_ASCII));
        byte[] line = new byte[48];
        long width = bins.width();
        for (int k = 0; k < bins.size(); k++) {
            int n = digits(line, 0, k * width);
            line[n++] = ' ';
            n = digits(line, n, bins.count(k));
            line[n++] = '\n';
            out.write(line, 0, n);
        }
    }

    /** Writes {@code v} (not negative) in decimal at {@code pos}; returns the position after it. */
    private static int digits(byte[] buf, int pos, long v) {
        int start = pos;
        do {
            buf[pos++] = (byte) ('0' + v % 10);
            v /= 10;
        } while (v != 0);
        for (int i = start, j = pos - 1; i < j; i++, j--) {
            byte t = buf[i];
            buf[i] = buf[j];
            buf[j] = t;
        }
        return pos;
    }
}
