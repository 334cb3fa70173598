package org.dsmscope.cdat;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.dsmscope.trace.OutputFile;

/**
 * The serial run's order of a partitioned run's traffic-trace records (seed 000 Appendix C, SPEC §4 "Partitioning").
 * Every partition counts the same steps, one per line an access, fetch or disk transfer touches and one per status
 * change ({@link #next}), whichever partition simulates it; all records of one step come from one partition. Each
 * partition writes its records to hidden files of its own beside the outputs and logs runs {@code (step, file,
 * count)} of consecutive records of one step to one file; {@link #merge} then copies the records to the real files
 * by step, which is the serial run's order. File 0 is the detailed trace, file 1 + K the general trace of processor
 * K (then the I/O processors).
 */
final class TrafficOrder {
    private final Path logPath;
    private final DataOutputStream log;
    private long step;
    private int runFile = -1;
    private long runStep = -1;
    private int runCount;

    TrafficOrder(Path logPath) {
        this.logPath = logPath;
        try {
            this.log = new DataOutputStream(new BufferedOutputStream(Files.newOutputStream(logPath), 1 << 16));
        } catch (IOException e) {
            throw new UncheckedIOException(logPath + ": cannot write: " + e.getMessage(), e);
        }
    }

    /** The hidden name of partition {@code k}'s part of output {@code out}. */
    static Path part(Path out, int k) {
        return out.resolveSibling("." + out.getFileName() + ".part" + k);
    }

    /** The next step (a line of an access, fetch or transfer, or a status change). */
    void next() {
        step++;
    }

    /** {@code n} steps of other partitions' lines (a routed partition's skipped accesses, one line each). */
    void skip(long n) {
        step += n;
    }

    /** A record of the current step was written to file {@code file}. */
    void wrote(int file) {
        if (file == runFile && step == runStep) {
            runCount++;
            return;
        }
        flushRun();
        runFile = file;
        runStep = step;
        runCount = 1;
    }

    private void flushRun() {
        if (runCount == 0) {
            return;
        }
        try {
            log.writeLong(runStep);
            log.writeInt(runFile);
            log.writeInt(runCount);
        } catch (IOException e) {
            throw new UncheckedIOException(logPath + ": cannot write: " + e.getMessage(), e);
        }
        runCount = 0;
    }

    /** Ends the log. */
    void close() {
        flushRun();
        try {
            log.close();
        } catch (IOException e) {
            throw new UncheckedIOException(logPath + ": cannot write: " + e.getMessage(), e);
        }
    }

    /** Closes and deletes the log (a failed run, or after the merge). */
    void delete() {
        try {
            log.close();
        } catch (IOException e) {
            // deleted anyway
        }
        try {
            Files.deleteIfExists(logPath);
        } catch (IOException e) {
            // a hidden leftover, not a wrong result
        }
    }

    /**
     * Writes {@code outs} (null entries: files not asked for) from the partitions' parts ({@code parts.get(k)[f]},
     * the files {@code orders.get(k)} logged) in step order, then deletes the parts and logs. Each output is written
     * under its partial name and renamed once complete.
     */
    static void merge(List<TrafficOrder> orders, List<Path[]> parts, Path[] outs) {
        int n = orders.size();
        DataInputStream[] logs = new DataInputStream[n];
        LineCopier[][] in = new LineCopier[n][outs.length];
        OutputStream[] out = new OutputStream[outs.length];
        boolean done = false;
        try {
            for (int f = 0; f < outs.length; f++) {
                if (outs[f] != null) {
                    out[f] = new BufferedOutputStream(Files.newOutputStream(OutputFile.partial(outs[f])), 1 << 16);
                }
            }
            long[] step = new long[n];
            int[] file = new int[n];
            int[] count = new int[n];
            for (int k = 0; k < n; k++) {
                logs[k] = new DataInputStream(new BufferedInputStream(Files.newInputStream(orders.get(k).logPath),
                        1 << 16));
                step[k] = readRun(logs[k], k, file, count);
            }
            while (true) {
                int best = -1;
                for (int k = 0; k < n; k++) {
                    if (step[k] >= 0 && (best < 0 || step[k] < step[best])) {
                        best = k;
                    }
                }
                if (best < 0) {
                    break;
                }
                int f = file[best];
                if (in[best][f] == null) {
                    in[best][f] = new LineCopier(Files.newInputStream(parts.get(best)[f]));
                }
                in[best][f].copyLines(count[best], out[f]);
                step[best] = readRun(logs[best], best, file, count);
            }
            for (int f = 0; f < outs.length; f++) {
                if (out[f] != null) {
                    out[f].close();
                    OutputFile.commit(OutputFile.partial(outs[f]), outs[f]);
                }
            }
            done = true;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot merge the partitions' traffic traces: " + e.getMessage(), e);
        } finally {
            for (int k = 0; k < n; k++) {
                close(logs[k]);
                for (LineCopier c : in[k]) {
                    close(c);
                }
                orders.get(k).delete();
                for (Path p : parts.get(k)) {
                    deleteQuietly(p);
                }
            }
            if (!done) {
                for (int f = 0; f < outs.length; f++) {
                    close(out[f]);
                    if (outs[f] != null) {
                        OutputFile.discard(OutputFile.partial(outs[f]));
                    }
                }
            }
        }
    }

    /** The next run's step (its file and count into {@code file[k]}, {@code count[k]}), or -1 at the end. */
    private static long readRun(DataInputStream log, int k, int[] file, int[] count) throws IOException {
        long s;
        try {
            s = log.readLong();
        } catch (EOFException e) {
            return -1;
        }
        file[k] = log.readInt();
        count[k] = log.readInt();
        return s;
    }

    static void deleteQuietly(Path p) {
        if (p == null) {
            return;
        }
        try {
            Files.deleteIfExists(p);
        } catch (IOException e) {
            // a hidden leftover, not a wrong result
        }
    }

    private static void close(java.io.Closeable c) {
        if (c != null) {
            try {
                c.close();
            } catch (IOException e) {
                // reading is over
            }
        }
    }

    /** Copies whole lines from a file, through a buffer of its own. */
    private static final class LineCopier implements java.io.Closeable {
        private final InputStream in;
        private final byte[] buf = new byte[1 << 16];
        private int pos;
        private int len;

        LineCopier(InputStream in) {
            this.in = in;
        }

        void copyLines(int lines, OutputStream out) throws IOException {
            int left = lines;
            while (left > 0) {
                if (pos == len) {
                    len = in.read(buf, 0, buf.length);
                    pos = 0;
                    if (len <= 0) {
                        len = 0;
                        throw new IOException("a partition's traffic trace ended early");
                    }
                }
                int start = pos;
                while (pos < len && left > 0) {
                    if (buf[pos++] == '\n') {
                        left--;
                    }
                }
                out.write(buf, start, pos - start);
            }
        }

        @Override
        public void close() throws IOException {
            in.close();
        }
    }
}
