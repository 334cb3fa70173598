package org.dsmscope.trace;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteOrder;
import java.nio.channels.ReadableByteChannel;
import java.nio.file.Path;

/**
 * Streaming cursor over one SMAIT trace file (seed 000 Appendix A, extensions in {@link SmaitFormat}).
 *
 * <p>{@link #next()} decodes the next record and returns its {@link RecordKind}; accessors then describe it until
 * the following call. Call records are reassembled from their six simple records and checked (all six present, in
 * order, of one type). Compression (zstd or LZ4 frames) and the byte order are detected when the file opens.
 * Simple records are copied in chunks of at most 64 KiB into a {@code long[]} (first field in the high half,
 * whatever the file's byte order; see {@link WordStream}, the stream layer this cursor decodes, and
 * {@link WordSource}: uncompressed files straight from a memory mapping, others through a direct read buffer, words
 * handed over in process ({@link WordChannel}, a routed replay's pipes, {@link RoutedStream}) as they come), so
 * files larger than memory stream through. Each chunk is checked in one tight loop up to its first record that is
 * not a memory, branch, procedure or fetch record; the hot path of {@link #next()} is then one array load and a
 * lookup by the top byte, allocating nothing. Not thread-safe.
 *
 * <p>On bad input {@link #next()} throws {@link TraceFormatException} naming the file and the byte offset of the
 * record (offsets count the uncompressed record stream, header included). With
 * {@link Options#skipBadRecords(boolean)} it instead skips the bad simple records and counts them in
 * {@link #skipped()}.
 */
public final class TraceReader extends RoutedStream implements AutoCloseable {

    /** How a file is read. */
    public static final class Options {
        ByteOrder order;
        boolean skipBad;
        boolean liveHints;
        boolean routedGaps;
        int bufferBytes = 1 << 20;
        long mapBytes = 1L << 26;

        /** Byte order of a headerless file, instead of detecting it (null: detect); a header always wins. */
        public Options order(ByteOrder o) {
            this.order = o;
            return this;
        }

        /** Skip bad records instead of failing; see {@link TraceReader#skipped()}. */
        public Options skipBadRecords(boolean s) {
            this.skipBad = s;
            return this;
        }

        /**
         * Accept the on-the-fly hint record {@link CallType#LIVE_JOIN} (only the readers of an on-the-fly
         * analysis's streams; in files it is an unknown call type).
         */
        public Options liveHints(boolean h) {
            this.liveHints = h;
            return this;
        }

        /**
         * Accept the gap records ({@link CallType#ROUTED_GAP}, {@link RoutedWords#TAG_GAP}) and take in the position
         * and run records ({@link CallType#ROUTED_AT}, {@link RoutedWords}): only the readers of a routed partitioned
         * replay's streams; in files they are unknown call types and tags.
         */
        public Options routedGaps(boolean g) {
            this.routedGaps = g;
            return this;
        }

        /** Size of the read buffer in bytes (at most 256 KiB is used); the record chunk is at most 64 KiB. */
        public Options bufferBytes(int n) {
            this.bufferBytes = Math.max(4 * SmaitFormat.CALL_BYTES, n & ~7);
            return this;
        }

        /**
         * Uncompressed files are mapped into memory in windows of this many bytes (rounded down to a multiple of
         * 8; 64 MiB by default) and copied from the page cache without a read; 0 reads them through the buffer.
         */
        public Options mapBytes(long n) {
            this.mapBytes = n & ~7L;
            return this;
        }

        /** Defaults: detect order, fail on bad records. */
        public static Options defaults() {
            return new Options();
        }
    }

    private final boolean liveHints;
    /** The first record was a start_trace call ({@link #verifiable}). */
    private boolean startTraceFirst;
    /** The end record the header promised ({@link #endPromised}) was read. */
    private boolean endSeen;
    /**
     * Where {@link #next()}'s fast path stops: {@link #avail}, or 0 while {@link #addrHi} is the top 4 GiB of the
     * 64-bit space ({@link #TOP_HIGH}), where every record goes through {@link #slowNext()}'s check that an
     * access does not run past the end of the address space.
     */
    private int fastEnd;
    /** Address-high value of the last 4 GiB of the 64-bit space, the only region an access can run past. */
    private static final long TOP_HIGH = 0xFFFFFFFF00000000L;
    /** {@link #extension}'s answer for an access running past the end of the 64-bit address space. */
    private static final int WRAPS = -2;
    /**
     * The hot path returns words below this index without looking further: they have been scanned and are all
     * memory, branch, procedure or fetch records (see {@link #scan}).
     */
    private int okEnd;
    /** Bits 63..32 of addresses (set by address-high records), already shifted into place. */
    private long addrHi;

    // The current record.
    /** Value of {@link #cur} at the end of the file (and before the first record): a first field no record has. */
    private static final long EOF_WORD = 0xFFFFFFFF_00000000L;
    /**
     * The current record as read, first field in bits 63..32, second in 31..0; the kind is derived from the first
     * field (a call record keeps its part-0 tag, the end of the file {@link #EOF_WORD}).
     */
    private long cur = EOF_WORD;

    /** Reads from {@code in}; {@code name} names the file in messages. */
    public TraceReader(ReadableByteChannel raw, String name, Options o) throws IOException {
        super(raw, name, o);
        this.liveHints = o.liveHints;
        start(o);
    }

    /**
     * Reads the words handed over in process by {@code in} (a routed replay's pipe: with {@link
     * Options#routedGaps}, its run records spare the reader the check of their words); {@code name} names the trace
     * file in messages.
     */
    public TraceReader(WordChannel in, String name, Options o) throws IOException {
        super(in, name, o);
        this.liveHints = o.liveHints;
        start(o);
    }

    /** Reads the first chunk (whole for a headerless stream), then settles the byte order and reads the header. */
    private void start(Options o) {
        fillOrFail();
        int first = avail > 0 ? (int) (words[0] >>> 32) : 0;
        if (first != SmaitFormat.HEADER_MAGIC && first != Integer.reverseBytes(SmaitFormat.HEADER_MAGIC)) {
            // a headerless file's byte order is detected from the words of the first chunk: read it whole
            while (avail < words.length && !eofSeen) {
                fillOrFail();
            }
        }
        if (avail == 0 && tail == 0) {
            throw new TraceFormatException(name, 0, "empty trace file (no records)");
        }
        detectOrder(o.order);
    }

    /**
     * Opens a file. Missing or unreadable files, directories and devices give a {@link BadInputException}; a pipe
     * or FIFO is read as a stream (once).
     */
    public static TraceReader open(Path file, Options o) throws IOException {
        return TraceFiles.open(file, o);
    }

    /** Opens a file with default options. */
    public static TraceReader open(Path file) throws IOException {
        return open(file, Options.defaults());
    }

    /**
     * Where a reader of an uncompressed file stands between two records ({@link #mark}): the byte offset, the
     * records before it, the address-high word in force and the file's header state, all that a reader needs to
     * read on from there ({@link #openAt}) without reading what lies before. Serializable (a plan sent to other
     * processes carries the marks of its trace files).
     */
    public static final class Mark implements java.io.Serializable {
        private static final long serialVersionUID = 1L;
        final long offset;
        final long records;
        final long addressHigh;
        final boolean big;
        final boolean extended;
        final int headerFlags;

        Mark(long offset, long records, long addressHigh, boolean big, boolean extended, int headerFlags) {
            this.offset = offset;
            this.records = records;
            this.addressHigh = addressHigh;
            this.big = big;
            this.extended = extended;
            this.headerFlags = headerFlags;
        }

        /** Byte offset of the next record in the file. */
        public long offset() {
            return offset;
        }

        /** Records before it (a call record counts once). */
        public long records() {
            return records;
        }
    }

    /**
     * Where this reader stands: after the record {@link #next()} (or the run {@link #nextRun}, or the words
     * {@link #skip}) read last, before the next. Uncompressed files only ({@link Codec#NONE}): a position in a
     * compressed stream cannot be read from without decoding what lies before it.
     */
    public Mark mark() {
        if (codec != Codec.NONE) {
            throw new IllegalStateException(name + ": a " + codec + " stream has no marks");
        }
        return new Mark(pos(), records(), addrHi, order == ByteOrder.BIG_ENDIAN, extended, headerFlags);
    }

    /**
     * Opens {@code file} (uncompressed) to read its records from {@code from} (a {@link #mark} of a reader of the
     * same file) up to byte offset {@code to} (a later mark's offset, or the file's size): the reader reads no
     * byte outside that range, and reports the file's own byte offsets and record numbers. The end record that a
     * header promises is checked only by a range that reaches the end of the file.
     */
    public static TraceReader openAt(Path file, Options o, Mark from, long to) throws IOException {
        java.nio.channels.FileChannel ch = TraceFiles.channel(file);
        try {
            if (from.offset < 0 || (from.offset & 7) != 0 || to < from.offset || to > ch.size()) {
                throw new BadInputException(file + ": cannot read bytes " + from.offset + " to " + to + " of a file of "
                        + ch.size() + " bytes (the file changed since it was marked)");
            }
            return new TraceReader(ch, file.toString(), o, from, to);
        } catch (IOException | RuntimeException e) {
            ch.close();
            throw e;
        }
    }

    /** A reader of the range {@code from} to {@code to} of {@code ch} ({@link #openAt}). */
    private TraceReader(java.nio.channels.FileChannel ch, String name, Options o, Mark from, long to)
            throws IOException {
        super(ch, name, o, from, to);
        this.liveHints = o.liveHints;
        this.addrHi = from.addressHigh;
        fillOrFail();
    }

    /**
     * Index of the first word from {@code from} on that is not a valid memory, branch, procedure or (extended
     * files) fetch record, or {@link #avail}: the one check of the hot path, done for a whole chunk at a time, in
     * blocks ({@link #scanBlock}: called often, the JIT compiles it early, not as a loop of 8,192 words on stack).
     */
    private int scan(int from) {
        if (addrHi == TOP_HIGH || endSeen) {
            // after the end record, every word is an error; the last 4 GiB: every record through next()
            return from;
        }
        int j = from;
        for (int to, end = avail; j < end; j = to) {
            to = Math.min(end, j + 256);
            int k = scanBlock(words, j, to, extended);
            if (k < to) {
                return k;
            }
        }
        return j;
    }

    /** {@link #scan}'s check of words {@code from .. to}: the index of the first that fails it, or {@code to}. */
    private static int scanBlock(long[] w, int from, int to, boolean extended) {
        int j = from;
        while (j < to) {
            int f1 = (int) (w[j] >>> 32);
            if ((f1 >>> 12) == 0 ? !RecordShapes.MEM_VALID[f1 & 0xFFF] : RecordShapes.BRANCH_KIND[f1 >>> 28] == 0
                    && !(extended && (f1 & 0xFFFF0000) == SmaitFormat.TAG_FETCH && (f1 & 0xFFFF) != 0)) {
                break;
            }
            j++;
        }
        return j;
    }

    /**
     * Decodes the next record.
     *
     * @return a {@link RecordKind} constant, {@link RecordKind#EOF} at the end
     * @throws TraceFormatException on bad input (unless skipping)
     * @throws UncheckedIOException if the file cannot be read
     */
    public int next() {
        int i = wi;
        if (i < fastEnd) {
            // Hot path: one array load, a lookup by the type field or the top hex digit, two field stores.
            long v = words[i];
            int f1 = (int) (v >>> 32);
            int k = (f1 >>> 12) == 0 ? RecordShapes.MEM_KIND[f1 & 0xFFF] : RecordShapes.TOP_KIND[f1 >>> 28];
            if (k != 0 && (k != RecordKind.FETCH || extended && (f1 & 0xFFFF0000) == SmaitFormat.TAG_FETCH
                    && (f1 & 0xFFFF) != 0)) {
                wi = i + 1;
                cur = v;
                return k;
            }
        }
        return slowNext();
    }

    /** Extends the checked words past {@link #wi}; returns how many there are from {@link #wi} on. */
    private int checked() {
        int i = wi;
        if (okEnd <= i) {
            if (routedGaps) {
                i = takeIn(i, addrHi != TOP_HIGH && !endSeen); // the run a run record announces comes in this call
            }
            int t = trustedTo(i);
            okEnd = t > i ? t : scan(i);
        }
        return okEnd - i;
    }

    /**
     * Batch form of {@link #next()} for the common records: copies the following memory, branch, procedure and
     * fetch records, up to {@code max} of them, into {@code dst} from {@code off} as raw simple-record words (first
     * field in bits 63..32, second field in 31..0, whatever the file's byte order; {@link #wordKind(long)} gives a
     * word's kind, the first field decodes as in the format table, the address is {@link #addressHigh()} | the low
     * 32 bits) and returns how many. It stops before any other record (calls, address-high and wide records, bad
     * input) and at the end of the buffered words, so every word of a batch shares {@link #addressHigh()}.
     * Returns 0 when the next record needs {@link #next()}: call it then (it also refills and reports the end of
     * the file). Afterwards the accessors describe the last word copied. Allocates nothing.
     */
    public int nextBatch(long[] dst, int off, int max) {
        int n = Math.min(Math.min(max, dst.length - off), checked());
        if (n <= 0) {
            return 0;
        }
        int i = wi;
        runStart = i;
        System.arraycopy(words, i, dst, off, n);
        wi = i + n;
        cur = words[i + n - 1];
        return n;
    }

    /** Index in {@link #runWords()} of the first word of the last {@link #nextRun}. */
    private int runStart;

    /**
     * Zero-copy form of {@link #nextBatch}: the same records, left in the reader's own array; returns how many,
     * found at {@link #runWords()} from {@link #runStart()}. Those words are read-only and valid until the next
     * call of any reading method.
     */
    public int nextRun(int max) {
        int n = peekRun(max);
        if (n > 0) {
            wi += n;
            cur = words[wi - 1];
        }
        return n;
    }

    /**
     * {@link #nextRun} without reading: the same words (at most {@code max}) are at {@link #runWords()} from
     * {@link #runStart()}, and {@link #skip} then reads the first k of them. For a consumer that decides how many
     * to take after looking ahead in several readers (the replay's lockstep rounds). Allocates nothing.
     */
    public int peekRun(int max) {
        int n = Math.max(Math.min(max, checked()), 0);
        runStart = wi;
        peeked = n;
        return n;
    }

    /** Words seen by the last {@link #peekRun} (what {@link #skip} may take). */
    private int peeked;

    /** Reads the first {@code k} words of the {@link #peekRun} just made ({@code 0 <= k <=} its count). */
    public void skip(int k) {
        if (k == 0) {
            return;
        }
        int i = wi + k;
        if (k < 0 || k > peeked || wi != runStart) {
            throw new IllegalArgumentException("cannot skip " + k + " words after a look-ahead of " + peeked);
        }
        wi = i;
        cur = words[i - 1];
    }

    /**
     * Gives back the last {@code k} words of the {@link #nextRun} or {@link #nextBatch} just made ({@code 0 <= k <}
     * its count, before any other reading call): the next call returns them again, and the accessors describe the
     * last word kept. For consumers that may have to stop in the middle of a run.
     */
    public void unread(int k) {
        if (k == 0) {
            return;
        }
        int i = wi - k;
        if (k < 0 || i <= runStart) {
            throw new IllegalArgumentException("cannot give back " + k + " of a run of " + (wi - runStart) + " words");
        }
        wi = i;
        cur = words[i - 1];
    }

    /** The array holding the words of the last {@link #nextRun} (the reader's own; do not modify). */
    public long[] runWords() {
        return words;
    }

    /** Where the words of the last {@link #nextRun} start in {@link #runWords()}. */
    public int runStart() {
        return runStart;
    }

    /** Kind of a word returned by {@link #nextBatch}: memory, procedure start, branch, procedure call or fetch. */
    public static int wordKind(long word) {
        return RecordShapes.FAST_KIND[(int) (word >>> 56)];
    }

    /** Bits 63..32 of the addresses of the current record and of the words of the last {@link #nextBatch}. */
    public long addressHigh() {
        return addrHi;
    }

    private int slowNext() {
        for (;;) {
            // more words when none is left, or while a call record's six parts are not all there yet
            while (!eofSeen && (wi >= avail
                    || (avail - wi < SmaitFormat.CALL_PARTS && (int) (words[wi] >>> 44) == 1))) {
                fillOrFail();
            }
            if (endSeen && (wi < avail || tail > tailDone)) {
                afterEnd();
                continue;
            }
            if (wi >= avail) {
                int left = tail - tailDone;
                if (left == 0) {
                    if (endPromised && !endSeen) {
                        missingEnd();
                        continue;
                    }
                    cur = EOF_WORD;
                    return RecordKind.EOF;
                }
                badTail(0, "truncated record: " + left + " trailing byte" + (left == 1 ? "" : "s")
                        + " (a simple record has 8)");
                continue;
            }
            long v = words[wi];
            int f1 = (int) (v >>> 32);
            int f2 = (int) v;
            int top = f1 >>> 28;
            if (top == 0 && f1 < 0x1000) {
                if (!RecordShapes.MEM_VALID[f1]) {
                    bad(1, String.format("bad memory-access type field %08x", f1));
                    continue;
                }
                if (pastEnd(f2, RecordShapes.MEM_BYTES[f1])) {
                    bad(1, pastEndMessage(f1, f2));
                    continue;
                }
                return fast();
            }
            switch (top) {
                case 0:
                    if (f1 < 0x2000) {
                        if (readCall(f1)) {
                            return RecordKind.CALL;
                        }
                        continue;
                    }
                    break;
                case 1:
                    if (extended) {
                        int r = extension(f1, f2);
                        if (r > 0) {
                            return r;
                        }
                        if (r == 0) {
                            continue;
                        }
                        if (r == WRAPS) {
                            bad(1, pastEndMessage(f1, f2));
                            continue;
                        }
                        bad(1, String.format("bad extension record %08x %08x", f1, f2));
                        continue;
                    }
                    break;
                case 3:
                    if (routedGaps) {
                        int r = routedWord(f1, f2, addrHi != TOP_HIGH && !endSeen);
                        if (r > 0) {
                            cur = (long) SmaitFormat.callTag(CallType.ROUTED_GAP, 0) << 32;
                            return RecordKind.CALL;
                        }
                        if (r == 0) {
                            continue;
                        }
                        bad(1, String.format("bad routed record %08x %08x", f1, f2));
                        continue;
                    }
                    break;
                case 4:
                case 8:
                case 0xC:
                    return fast();
                default:
                    break;
            }
            bad(1, unknownTagMessage(f1));
        }
    }

    /** The word at {@link #wi} is a hot-path record: check the words after it too, then take it. */
    private int fast() {
        cur = words[wi++];
        return RecordShapes.FAST_KIND[(int) (cur >>> 56)];
    }

    /** Refills the chunk ({@link #fill}); a read error ends the stream or fails, as the options say. */
    private void fillOrFail() {
        okEnd = 0;
        try {
            fill();
            fastEnd = addrHi == TOP_HIGH || endSeen ? 0 : avail;
        } catch (InternalError e) {
            // a fault in a mapping: the file shrank between the size check and the copy
            throw new UncheckedIOException(name + ": cannot read: the file shrank while being read",
                    new IOException(e.getMessage(), e));
        } catch (IOException e) {
            if (codec != Codec.NONE) {
                String what = "corrupt or truncated " + codec.name().toLowerCase() + " stream: " + e.getMessage();
                if (!skipBad) {
                    throw new TraceFormatException(name, base + ((long) avail << 3), what);
                }
                // skipping: the records decoded so far are kept, the rest of the stream is one skipped record
                // (a trace whose collection was killed mid-write still gives what it holds)
                noteSkipped(base + ((long) avail << 3), what + " (the rest of the file skipped)");
                eofSeen = true;
                tail = 0;
                return;
            }
            throw new UncheckedIOException(name + ": cannot read: " + e.getMessage(), e);
        }
    }

    /**
     * True if {@code size} bytes from the address with low half {@code low} run past the end of the 64-bit
     * address space (only possible in its last 4 GiB).
     */
    private boolean pastEnd(int low, int size) {
        return addrHi == TOP_HIGH && (low & 0xFFFFFFFFL) + size > 0x1_0000_0000L;
    }

    private String pastEndMessage(int f1, int f2) {
        return String.format("record %08x %08x: an access at 0x%016x runs past the end of the 64-bit address space",
                f1, f2, addrHi | (f2 & 0xFFFFFFFFL));
    }

    /** Returns 0 if the record was consumed without producing one, WRAPS, -1 if bad, else the kind. */
    private int extension(int f1, int f2) {
        int sub = f1 & 0xFF000000;
        if (sub == SmaitFormat.TAG_ADDR_HI && (f1 & 0x00FFFFFF) == 0) {
            if (!addr64) {
                return -1;
            }
            addrHi = (f2 & 0xFFFFFFFFL) << 32;
            fastEnd = addrHi == TOP_HIGH || endSeen ? 0 : avail;
            wi++;
            nonRecordBytes += SmaitFormat.SIMPLE;
            return 0;
        }
        if (f1 == SmaitFormat.TAG_END && endPromised) {
            long before = pos() / SmaitFormat.SIMPLE;
            if ((int) before != f2) {
                bad(1, String.format("end record counts %d simple records before it, the file has %d: records are"
                        + " missing or were added", f2 & 0xFFFFFFFFL, before & 0xFFFFFFFFL));
                return 0;
            }
            endSeen = true;
            fastEnd = 0;
            okEnd = 0;
            wi++;
            nonRecordBytes += SmaitFormat.SIMPLE;
            return 0;
        }
        if (sub == SmaitFormat.TAG_FETCH) {
            int len = f1 & 0x00FFFFFF;
            if (len < 1 || len > 0xFFFF) {
                return -1;
            }
            if (pastEnd(f2, len)) {
                return WRAPS;
            }
            return fast();
        }
        if (sub == SmaitFormat.TAG_WIDE_MEM) {
            int k = (f1 >>> 20) & 0xF;
            int reg = (f1 >>> 16) & 0xF;
            int size = f1 & 0xFFFF;
            if (k > 1 || reg > MemType.VECTOR || size == 0) {
                return -1;
            }
            if (pastEnd(f2, size)) {
                return WRAPS;
            }
            cur = words[wi++];
            return RecordKind.MEMORY;
        }
        return -1;
    }

    /**
     * The stream goes on after the end record (appended to, or two files joined): an error; skipping, the rest
     * of the file is one skipped record.
     */
    private void afterEnd() {
        long at = pos();
        if (!skipBad) {
            throw new TraceFormatException(name, at, "data after the end record (the file was appended to or"
                    + " joined with another)");
        }
        noteSkipped("data after the end record (the rest of the file skipped)");
        for (;;) {
            nonRecordBytes += (long) (avail - wi) << 3;
            wi = avail;
            if (eofSeen) {
                break;
            }
            fillOrFail();
        }
        nonRecordBytes += tail - tailDone;
        tailDone = tail;
    }

    /** The file ends without the end record its header promised: it was cut short (error, or skipped once). */
    private void missingEnd() {
        String what = "the file ends without the end record its header promises: it was cut short (its writer"
                + " stopped early, a full disk, a partial copy) and records are missing";
        if (!skipBad) {
            throw new TraceFormatException(name, pos(), what);
        }
        noteSkipped(what);
        endSeen = true;
    }

    private boolean readCall(int f1) {
        int t = (f1 >>> 4) & 0xFF;
        int part0 = f1 & 0xF;
        if (part0 != 0) {
            bad(1, String.format("call record part %d of type %02x (%s) without part 0", part0,
                    t, CallType.name(t)));
            return false;
        }
        if (!CallType.isKnown(t) && !(liveHints && t == CallType.LIVE_JOIN)
                && !(routedGaps && (t == CallType.ROUTED_GAP || t == CallType.ROUTED_AT))) {
            bad(1, String.format("unknown call type %02x in record tag %08x", t, f1));
            return false;
        }
        int have = avail - wi;
        for (int i = 0; i < SmaitFormat.CALL_PARTS; i++) {
            if (i >= have) {
                String what = String.format("truncated call record of type %02x (%s): part %d missing at end of"
                        + " file", t, CallType.name(t), i);
                // skip the parts that are there
                badTail(i, what);
                return false;
            }
            long v = words[wi + i];
            int g = (int) (v >>> 32);
            if (g != SmaitFormat.callTag(t, i)) {
                String found;
                if ((g >>> 12) == 1 && ((g >>> 4) & 0xFF) == t) {
                    found = "part " + (g & 0xF);
                } else {
                    found = String.format("record tag %08x", g);
                }
                bad(i, String.format("call record of type %02x (%s): part %d expected at byte"
                        + " offset %d, found %s", t, CallType.name(t), i, pos() + (long) i * SmaitFormat.SIMPLE,
                        found));
                return false;
            }
            callWords[i] = (int) v;
        }
        if (t == CallType.ROUTED_AT) {
            // where the next record is in the trace file: taken in, not returned (offset() answers with it)
            wi += SmaitFormat.CALL_PARTS;
            nonRecordBytes += SmaitFormat.CALL_BYTES;
            position(CallType.wide(callWords[2] & 0xFFFFFFFFL, callWords[3] & 0xFFFFFFFFL));
            return false;
        }
        if (t == CallType.START_TRACE && !startTraceFirst && records() == 0) {
            startTraceFirst = true;
        }
        callType = t;
        compactCall = false;
        cur = (long) SmaitFormat.callTag(t, 0) << 32;
        wi += SmaitFormat.CALL_PARTS;
        nonRecordBytes += SmaitFormat.CALL_BYTES - SmaitFormat.SIMPLE;
        return true;
    }

    // ---- accessors of the current record ----

    /** Kind of the current record. */
    public int kind() {
        int f = (int) (cur >>> 32);
        switch (f >>> 28) {
            case 0: return f < 0x1000 ? RecordKind.MEMORY : RecordKind.CALL;
            case 1: return (f >>> 24) == 0x10 ? RecordKind.FETCH : RecordKind.MEMORY;
            case 4: return RecordKind.PROC_START;
            case 8: return RecordKind.BRANCH;
            case 0xC: return RecordKind.PROC_CALL;
            default: return RecordKind.EOF;
        }
    }

    /**
     * Byte offset of the current record in the uncompressed stream; in a routed stream, for a record (or the end)
     * that a {@link CallType#ROUTED_AT} record placed, its offset in the trace file.
     */
    public long offset() {
        long end = pos();
        int k = kind();
        long at = placed(k);
        if (at >= 0) {
            return at; // a routed stream's record (or end) placed by a position record: the trace file's
        }
        return k == RecordKind.EOF ? end : end - (k == RecordKind.CALL && !compactCall ? SmaitFormat.CALL_BYTES
                : SmaitFormat.SIMPLE);
    }

    /**
     * The current simple record as read, first field in bits 63..32 (a memory, branch, procedure or fetch record's
     * word as {@link #nextRun} returns words; a call record's part-0 tag in the high half).
     */
    public long word() {
        return cur;
    }

    /** Memory record: the type field (size code 0 for wide records; use {@link #size()}). */
    public int memType() {
        int f = (int) (cur >>> 32);
        return f < 0x1000 ? f : ((f >>> 8) & 0xF00) | ((f >>> 20) & 0xF);
    }

    /** Memory record: true if it was a wide memory-access extension record (its size has no size code). */
    public boolean wide() {
        return (cur >>> 56) == 0x12;
    }

    /** Memory record: true for a store. */
    public boolean isStore() {
        return (memType() & 0xF) == MemType.STORE;
    }

    /** Memory record: register type ({@link MemType}). */
    public int regType() {
        return (memType() >>> 8) & 0xF;
    }

    /** Memory record: bytes accessed; fetch record: instruction length. */
    public int size() {
        int f = (int) (cur >>> 32);
        int k = kind();
        if (k == RecordKind.MEMORY) {
            return f < 0x1000 ? RecordShapes.MEM_BYTES[f] : f & 0xFFFF;
        }
        return k == RecordKind.FETCH ? f & 0xFFFFFF : 0;
    }

    /** Memory or fetch record: the address; branch records: the target; procedure start: the procedure. */
    public long address() {
        return addrHi | (cur & 0xFFFFFFFFL);
    }

    /** Branch and procedure call records: the address after the branch (the first field's 28 bits). */
    public long source() {
        return (cur >>> 60) == 4 ? address() : addrHi | ((cur >>> 32) & SmaitFormat.BRANCH_FIELD_MASK);
    }

    /** Branch and procedure call records: the target address (same as {@link #address()}). */
    public long target() {
        return address();
    }

    // ---- about the file ----

    /**
     * True if the file can be verified complete: its header promises an end record ({@link #endPromised}), or its
     * first record is a start_trace call, whose end_trace the replay checks. Known once the first record was read.
     */
    public boolean verifiable() {
        return endPromised || startTraceFirst;
    }

    @Override
    public void close() throws IOException {
        src.close();
    }
}
