package org.dsmscope.trace.lackey;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.dsmscope.trace.BadInputException;
import org.dsmscope.trace.CallType;
import org.dsmscope.trace.MemType;
import org.dsmscope.trace.OpenFiles;
import org.dsmscope.trace.TraceSet;
import org.dsmscope.trace.TraceWriter;

/**
 * Imports Valgrind Lackey output ({@code valgrind --tool=lackey --trace-mem=yes [--trace-sched=yes]}) into a
 * SMAIT trace set, one file per thread: seed 000 §7's "traces collected by other tools", SPEC §2.
 *
 * <p>Mapping (Valgrind 3.19 line shapes; documented in the trace module README):
 * <pre>
 *   I  04001f40,3                   instruction fetch extension record, 3 bytes at 0x4001f40
 *    L 1ffefff8a8,8                 load of 8 bytes (register type 2: unknown)
 *    S 1ffefff8a8,8                 store of 8 bytes
 *    M 0422c0a8,4                   load of 4 bytes, then store of 4 bytes, same address
 *   --PID--   SCHED[n]:  acquired lock (...)   later records belong to Valgrind thread n
 *   --PID--   SCHED[n]: release lock in VG_(exit_thread)   thread n exited: id n next names a new thread
 *   --PID-- anything else, ==PID== anything    skipped
 * </pre>
 * Records before the first scheduler line belong to Valgrind thread 1 (the main thread). Each thread gets its own
 * file, {@code NAME.p.0 … NAME.p.(p-1)} in the order the threads first ran; Valgrind reuses the id of an exited
 * thread for the next one it creates, and that thread gets a new file (the two merged would make their
 * communication look private). The output is the extended format with 64-bit addresses. The input is streamed:
 * memory use does not grow with its size.
 *
 * <p>Valgrind runs one thread at a time, so the log is a real interleaving (SPEC §2). At every switch from one
 * thread's file to another's the importer writes a hand-off pair with the next turn number n (1, 2, ...): {@link
 * CallType#TURN_RELEASE} at the end of the stopping thread's records, {@link CallType#TURN_ACQUIRE} before the
 * next thread's; the replay lets no thread pass its acquire of turn n before turn n was released, so it follows
 * the log's order. The records of one line (the load and store of an {@code M}) are written together. Address
 * ranges named as synchronization ({@link #syncRanges}) become {@link CallType#SYNC_RANGE} records at the start of
 * the first file. An access whose bytes run past the end of the 64-bit address space is a bad line.
 */
public final class LackeyImporter {

    /** What an import produced. */
    public static final class Result {
        /** The trace files, in thread order. */
        public final List<Path> files;
        /** The Valgrind thread id of each file. */
        public final int[] valgrindThreads;
        /** Records written (a modify line counts as two; hand-off and sync-range call records count one each). */
        public final long records;
        /** Lines that did not parse and were skipped (with skipping on). */
        public final long skipped;
        /** The first skipped line: "line N: what: 'text'", or null. */
        public final String firstSkipped;

        Result(List<Path> files, int[] tids, long records, long skipped, String firstSkipped) {
            this.files = files;
            this.valgrindThreads = tids;
            this.records = records;
            this.skipped = skipped;
            this.firstSkipped = firstSkipped;
        }

        /** The trace-set prefix {@code NAME.p}. */
        public String prefix(String name) {
            return name + "." + files.size();
        }
    }

    private final TraceWriter.Options options;
    /**
     * Options of the writers after the first {@link OpenFiles#FULL_BUFFER_FILES}: a small buffer and no background
     * thread, so that a program with thousands of threads fits in the JVM's direct memory (a full writer holds
     * about 1 MiB of direct buffers; 6,000 of them exhausted the 4 GiB default).
     */
    private final TraceWriter.Options smallOptions;
    /** Writers created so far. */
    private int created;
    /** The threads' files, opened while written to and closed when more would be open than the process may have. */
    private final OpenFiles files = OpenFiles.forThisProcess();
    private final boolean threadsFromSched;
    private final boolean skipBad;
    /** Address ranges named as synchronization variables: {address, bytes} each. */
    private long[][] syncRanges = new long[0][];
    /** Hand-offs written so far: the last turn number. */
    private long turns;

    private String inputName;
    private Path input;
    private Path tmpDir;
    private String tmpBase;
    /** Per file (one per thread instance, in the order they first ran): writer, temporary file, Valgrind id. */
    private TraceWriter[] writers = new TraceWriter[8];
    private Path[] tmpFiles = new Path[8];
    private int[] tidOf = new int[8];
    private int slots;
    /** Per Valgrind thread id: its current file + 1 (0: none yet), and whether that thread exited. */
    private int[] slotOf = new int[8];
    private boolean[] exited = new boolean[8];
    private TraceWriter current;
    private long records;
    private long skipped;
    private String firstSkipped;
    private long lineNo;
    private byte[] buf = new byte[1 << 16];

    /**
     * An importer writing with {@code options} (forced to the extended format with 64-bit addresses).
     *
     * @param threadsFromSched split threads by the scheduler lines (a log without them gives one file anyway);
     *     false: everything into one file, no hand-offs
     * @param skipBad skip lines that do not parse (counted) instead of failing
     */
    public LackeyImporter(TraceWriter.Options options, boolean threadsFromSched, boolean skipBad) {
        this.options = options.addr64(true);
        this.smallOptions = options.copy().bufferBytes(OpenFiles.SMALL_BUFFER_BYTES).background(false);
        this.threadsFromSched = threadsFromSched;
        this.skipBad = skipBad;
    }

    /**
     * Names address ranges whose accesses are synchronization (lock words): {address, bytes} each, bytes 1 to
     * {@link CallType#SYNC_RANGE_MAX}; written as {@link CallType#SYNC_RANGE} records at the start of the first
     * file. Returns this importer.
     */
    public LackeyImporter syncRanges(List<long[]> ranges) {
        long[][] r = ranges.toArray(new long[0][]);
        for (long[] a : r) {
            if (a[1] < 1 || a[1] > CallType.SYNC_RANGE_MAX) {
                throw new IllegalArgumentException("a sync range of " + a[1] + " bytes (1 to "
                        + CallType.SYNC_RANGE_MAX + ")");
            }
        }
        syncRanges = r;
        return this;
    }

    /** Hand-off pairs written (scheduler switches between threads' files). */
    public long handoffs() {
        return turns;
    }

    /**
     * Records written so far, for a progress display on another thread while {@link #run} runs (read without
     * synchronization: it may lag a little).
     */
    public long progress() {
        return records;
    }

    /** Imports {@code input} into the trace set {@code name.p}; returns the files written. */
    public Result run(Path input, String name) throws IOException {
        InputStream in;
        org.dsmscope.trace.InputFile.check(input, null, "Lackey output file", true);
        try {
            in = Files.newInputStream(input);
        } catch (NoSuchFileException e) {
            throw new BadInputException(input + ": no such Lackey output file");
        } catch (AccessDeniedException e) {
            throw new BadInputException(input + ": Lackey output is not readable (permission denied)");
        }
        if (Files.isDirectory(input)) {
            in.close();
            throw new BadInputException(input + ": is a directory, not Lackey output");
        }
        Path out = Path.of(name).toAbsolutePath();
        tmpDir = out.getParent();
        tmpBase = out.getFileName() + ".import-" + ProcessHandle.current().pid() + ".";
        inputName = input.toString();
        this.input = input;
        boolean ok = false;
        try (in) {
            parse(in);
            if (countThreads() == 0) {
                writer(1);
            }
            Result r = finish(name);
            ok = true;
            return r;
        } finally {
            if (!ok) {
                abandon();
            }
        }
    }

    private int countThreads() {
        return slots;
    }

    /**
     * The writer of Valgrind thread {@code tid}: a new file when the id is first seen, or seen again after its
     * thread exited (Valgrind reuses the ids of exited threads for new ones).
     */
    private TraceWriter writer(int tid) throws IOException {
        if (tid >= slotOf.length) {
            int n = Math.max(tid + 1, slotOf.length * 2);
            slotOf = Arrays.copyOf(slotOf, n);
            exited = Arrays.copyOf(exited, n);
        }
        if (slotOf[tid] == 0 || exited[tid]) {
            if (slots == writers.length) {
                writers = Arrays.copyOf(writers, slots * 2);
                tmpFiles = Arrays.copyOf(tmpFiles, slots * 2);
                tidOf = Arrays.copyOf(tidOf, slots * 2);
            }
            int k = slots++;
            tmpFiles[k] = tmpDir.resolve(tmpBase + k);
            writers[k] = TraceWriter.create(tmpFiles[k], ++created <= OpenFiles.FULL_BUFFER_FILES ? options : smallOptions,
                    files);
            tidOf[k] = tid;
            slotOf[tid] = k + 1;
            exited[tid] = false;
            if (k == 0) {
                for (long[] a : syncRanges) {
                    writers[0].call(CallType.SYNC_RANGE, 0, 0, a[0] & 0xFFFFFFFFL, a[0] >>> 32, a[1], 0);
                    records++;
                }
            }
        }
        return writers[slotOf[tid] - 1];
    }

    private Result finish(String name) throws IOException {
        int p = slots;
        for (int i = 0; i < p; i++) {
            writers[i].finish();
        }
        List<Path> files = new ArrayList<>(p);
        int[] vt = Arrays.copyOf(tidOf, p);
        for (int i = 0; i < p; i++) {
            Path f = Path.of(TraceSet.fileName(name, p, i));
            if (Files.exists(f) && Files.isSameFile(f, input)) {
                throw new BadInputException(f + ": is the Lackey output " + input + " this import reads; an output"
                        + " never replaces an input: give the trace set another name");
            }
            files.add(f);
        }
        int moved = 0;
        try {
            for (; moved < p; moved++) {
                Files.move(tmpFiles[moved], files.get(moved), StandardCopyOption.REPLACE_EXISTING);
                tmpFiles[moved] = null;
            }
        } finally {
            if (moved < p) {
                // no partial set: the files already in place go too (the error is the one reported)
                for (int i = 0; i < moved; i++) {
                    try {
                        Files.deleteIfExists(files.get(i));
                    } catch (IOException e) {
                        // best effort: the move's error is the one reported
                    }
                }
            }
        }
        return new Result(files, vt, records, skipped, firstSkipped);
    }

    private void abandon() {
        for (int t = 0; t < writers.length; t++) {
            try {
                if (writers[t] != null) {
                    writers[t].close();
                }
            } catch (IOException | RuntimeException e) {
                // the import failed already; its error is the one reported
            }
            try {
                if (tmpFiles[t] != null) {
                    Files.deleteIfExists(tmpFiles[t]);
                }
            } catch (IOException e) {
                // best effort clean-up of our own temporary file
            }
        }
    }

    // ---- line parsing, on bytes: no allocation per line ----

    private void parse(InputStream in) throws IOException {
        int len = 0;
        int start = 0;
        lineNo = 0;
        for (;;) {
            int r = in.read(buf, len, buf.length - len);
            if (r < 0) {
                if (start < len) {
                    line(start, len);
                }
                return;
            }
            len += r;
            int i = start;
            while (true) {
                int nl = indexOf(buf, (byte) '\n', i, len);
                if (nl < 0) {
                    break;
                }
                line(start, nl);
                start = nl + 1;
                i = start;
            }
            if (start > 0) {
                System.arraycopy(buf, start, buf, 0, len - start);
                len -= start;
                start = 0;
            } else if (len == buf.length) {
                if (buf.length >= 1 << 24) {
                    throw new BadInputException(inputName + ": line " + (lineNo + 1) + ": line longer than "
                            + buf.length + " bytes; not Lackey output");
                }
                buf = Arrays.copyOf(buf, buf.length * 2);
            }
        }
    }

    private static int indexOf(byte[] b, byte c, int from, int to) {
        for (int i = from; i < to; i++) {
            if (b[i] == c) {
                return i;
            }
        }
        return -1;
    }

    /** One line, bytes [s, e) without the line end. */
    private void line(int s, int e) throws IOException {
        lineNo++;
        if (e > s && buf[e - 1] == '\r') {
            e--;
        }
        if (e == s) {
            return;
        }
        byte c0 = buf[s];
        if (c0 == 'I' && e - s > 3 && buf[s + 1] == ' ' && buf[s + 2] == ' ') {
            access((byte) 'I', s + 3, e);
            return;
        }
        if (c0 == ' ' && e - s > 3 && buf[s + 2] == ' ') {
            byte k = buf[s + 1];
            if (k == 'L' || k == 'S' || k == 'M') {
                access(k, s + 3, e);
                return;
            }
        }
        if (c0 == '=' && valgrindLine(s, e, (byte) '=')) {
            return;
        }
        if (c0 == '-' && valgrindLine(s, e, (byte) '-')) {
            if (threadsFromSched) {
                sched(s, e);
            }
            return;
        }
        bad(s, e, "not a Lackey line (expected 'I  ADDR,SIZE', ' L|S|M ADDR,SIZE', '==PID==' or '--PID--')");
    }

    /** True for {@code ==PID==...} / {@code --PID--...}. */
    private boolean valgrindLine(int s, int e, byte d) {
        if (e - s < 5 || buf[s + 1] != d) {
            return false;
        }
        int i = s + 2;
        while (i < e && buf[i] >= '0' && buf[i] <= '9') {
            i++;
        }
        return i > s + 2 && i + 1 < e && buf[i] == d && buf[i + 1] == d;
    }

    private static final byte[] SCHED = "SCHED[".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] ACQUIRED = "]:  acquired lock".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] EXITED = "]: release lock in VG_(exit_thread)".getBytes(StandardCharsets.US_ASCII);

    private void sched(int s, int e) throws IOException {
        int i = find(SCHED, s, e);
        if (i < 0) {
            return;
        }
        int j = i + SCHED.length;
        int tid = 0;
        int digits = 0;
        while (j < e && buf[j] >= '0' && buf[j] <= '9' && digits < 7) {
            tid = tid * 10 + (buf[j] - '0');
            j++;
            digits++;
        }
        if (digits == 7 && j < e && buf[j] >= '0' && buf[j] <= '9') {
            // more digits than any Valgrind thread number: never read as another line kind (records would go to
            // the previous thread)
            bad(s, e, "scheduler line names a thread number of more than 7 digits");
            return;
        }
        if (digits > 0 && tid < slotOf.length && startsWith(EXITED, j, e)) {
            exited[tid] = true; // the id may name a new thread next time
            return;
        }
        if (digits == 0 || !startsWith(ACQUIRED, j, e)) {
            return; // entering, releasing, exiting: the running thread does not change here
        }
        if (tid < 1) {
            bad(s, e, "scheduler line names thread " + tid + " (Valgrind numbers threads from 1)");
            return;
        }
        TraceWriter prev = current;
        current = writer(tid);
        if (prev != null && prev != current) {
            // a switch: the stopping thread releases turn n, the next one acquires it (the log's order)
            turns++;
            prev.call(CallType.TURN_RELEASE, 0, 0, turns & 0xFFFFFFFFL, turns >>> 32, 0, 0);
            current.call(CallType.TURN_ACQUIRE, 0, 0, turns & 0xFFFFFFFFL, turns >>> 32, 0, 0);
            records += 2;
        }
    }

    private int find(byte[] pat, int s, int e) {
        for (int i = s; i + pat.length <= e; i++) {
            if (startsWith(pat, i, e)) {
                return i;
            }
        }
        return -1;
    }

    private boolean startsWith(byte[] pat, int i, int e) {
        if (i + pat.length > e) {
            return false;
        }
        for (int k = 0; k < pat.length; k++) {
            if (buf[i + k] != pat[k]) {
                return false;
            }
        }
        return true;
    }

    private void access(byte k, int s, int e) throws IOException {
        int i = s;
        long addr = 0;
        int digits = 0;
        for (; i < e; i++) {
            int d = hex(buf[i]);
            if (d < 0) {
                break;
            }
            addr = (addr << 4) | d;
            digits++;
        }
        if (digits == 0 || digits > 16 || i >= e || buf[i] != ',') {
            bad(s - 3, e, "bad address (expected hex digits then ',SIZE')");
            return;
        }
        i++;
        int size = 0;
        int sd = 0;
        for (; i < e && buf[i] >= '0' && buf[i] <= '9' && sd < 6; i++, sd++) {
            size = size * 10 + (buf[i] - '0');
        }
        while (i < e && buf[i] == ' ') {
            i++;
        }
        if (sd == 0 || i != e || size < 1 || size > 0xFFFF) {
            bad(s - 3, e, "bad size (expected a decimal size from 1 to 65535)");
            return;
        }
        if (Long.compareUnsigned(addr, -size) > 0) {
            // its last byte would wrap to address 0: no analysis could place it
            bad(s - 3, e, "an access of " + size + " bytes at 0x" + Long.toHexString(addr) + " runs past the end of"
                    + " the 64-bit address space");
            return;
        }
        TraceWriter w = current != null ? current : (current = writer(1));
        switch (k) {
            case 'I':
                w.fetch(addr, size);
                records++;
                break;
            case 'L':
                w.memory(MemType.LOAD, size, MemType.VECTOR, addr);
                records++;
                break;
            case 'S':
                w.memory(MemType.STORE, size, MemType.VECTOR, addr);
                records++;
                break;
            default:
                w.memory(MemType.LOAD, size, MemType.VECTOR, addr);
                w.memory(MemType.STORE, size, MemType.VECTOR, addr);
                records += 2;
                break;
        }
    }

    private static int hex(byte b) {
        if (b >= '0' && b <= '9') {
            return b - '0';
        }
        if (b >= 'a' && b <= 'f') {
            return b - 'a' + 10;
        }
        if (b >= 'A' && b <= 'F') {
            return b - 'A' + 10;
        }
        return -1;
    }

    private void bad(int s, int e, String what) {
        if (skipBad && skipped++ > 0) {
            return;
        }
        String text = new String(buf, Math.max(s, 0), Math.min(e - Math.max(s, 0), 60), StandardCharsets.UTF_8);
        String where = "line " + lineNo + ": " + what + ": '" + text + (e - s > 60 ? "...'" : "'");
        if (skipBad) {
            firstSkipped = where;
            return;
        }
        throw new BadInputException(inputName + ": " + where);
    }

    /** Lines skipped so far. */
    public long skipped() {
        return skipped;
    }
}
