package org.dsmscope.trace;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.channels.ReadableByteChannel;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * Streaming cursor over one SMAIT trace file (seed 000 Appendix A, extensions in {@link SmaitFormat}).
 *
 * <p>{@link #next()} decodes the next record and returns its {@link RecordKind}; accessors then describe it until
 * the following call. Call records are reassembled from their six simple records and checked (all six present, in
 * order, of one type). Compression (zstd or LZ4 frames) and the byte order are detected when the file opens. The
 * file is read through a fixed direct buffer whose simple records are mirrored into a {@code long[]} (first field
 * in the high half, whatever the file's byte order) at every refill, so files larger than memory stream through
 * and the hot path is one array load and a table lookup, allocating nothing. Not thread-safe.
 *
 * <p>On bad input {@link #next()} throws {@link TraceFormatException} naming the file and the byte offset of the
 * record (offsets count the uncompressed record stream, header included). With
 * {@link Options#skipBadRecords(boolean)} it instead skips the bad simple records and counts them in
 * {@link #skipped()}.
 */
public final class TraceReader implements AutoCloseable {

    /** How a file is read. */
    public static final class Options {
        ByteOrder order;
        boolean skipBad;
        int bufferBytes = 1 << 20;

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

        /** Size of the read buffer in bytes. */
        public Options bufferBytes(int n) {
            this.bufferBytes = Math.max(4 * SmaitFormat.CALL_BYTES, n & ~7);
            return this;
        }

        /** Defaults: detect order, fail on bad records. */
        public static Options defaults() {
            return new Options();
        }
    }

    /** Valid memory-access type fields (index: the 12-bit first field). */
    private static final boolean[] MEM_VALID = new boolean[0x1000];
    /** Bytes accessed for each type field. */
    private static final int[] MEM_BYTES = new int[0x1000];

    /** Record kind by the top hex digit of a branch record's first field; 0 for other digits. */
    private static final int[] BRANCH_KIND = new int[16];
    /** Hot-path kind by the top hex digit: branch kinds, and FETCH for digit 1 (checked further). */
    private static final int[] TOP_KIND = new int[16];
    /** {@link RecordKind#MEMORY} for valid memory-access type fields, else 0 (index: the 12-bit first field). */
    private static final int[] MEM_KIND = new int[0x1000];

    static {
        BRANCH_KIND[4] = RecordKind.PROC_START;
        BRANCH_KIND[8] = RecordKind.BRANCH;
        BRANCH_KIND[0xC] = RecordKind.PROC_CALL;
        System.arraycopy(BRANCH_KIND, 0, TOP_KIND, 0, 16);
        TOP_KIND[1] = RecordKind.FETCH;
        for (int f = 0; f < 0x1000; f++) {
            MEM_VALID[f] = MemType.valid(f);
            MEM_BYTES[f] = MEM_VALID[f] ? MemType.bytes(f) : 0;
            MEM_KIND[f] = MEM_VALID[f] ? RecordKind.MEMORY : 0;
        }
    }

    private final String name;
    private final ReadableByteChannel in;
    private final ByteBuffer buf;
    /** The buffer's simple records as longs in the file's byte order, refreshed by every fill (hot path reads it). */
    private final long[] words;
    private java.nio.LongBuffer view;
    private final boolean skipBad;
    private final Codec codec;
    private ByteOrder order;
    private boolean extended;
    private boolean addr64;
    private int headerFlags;
    private boolean eofSeen;
    /** Stream offset of buf index 0. */
    private long base;
    private int pos;
    private int lim;
    /** The hot path may decode at positions below this: a whole call record's bytes are buffered beyond. */
    private int fastEnd = Integer.MIN_VALUE;
    /** Bits 63..32 of addresses (set by address-high records), already shifted into place. */
    private long addrHi;
    private boolean big;
    private long skipped;

    /** Bytes of the stream consumed that are not one simple record per record (header, call parts 2-6, skips). */
    private long nonRecordBytes;

    // The current record.
    /** Records a headerless file needs before its byte order can be inferred from their shapes. */
    private static final int LE_EVIDENCE = 64;

    /** Value of {@link #cur} at the end of the file (and before the first record): a first field no record has. */
    private static final long EOF_WORD = 0xFFFFFFFF_00000000L;
    /**
     * The current record as read, first field in bits 63..32, second in 31..0; the kind is derived from the first
     * field (a call record keeps its part-0 tag, the end of the file {@link #EOF_WORD}).
     */
    private long cur = EOF_WORD;
    private int callType;
    private final int[] callWords = new int[SmaitFormat.CALL_PARTS];

    /** Reads from {@code in}; {@code name} names the file in messages. */
    public TraceReader(ReadableByteChannel raw, String name, Options o) throws IOException {
        this.name = name;
        this.skipBad = o.skipBad;
        ByteBuffer head = ByteBuffer.allocate(8);
        while (head.hasRemaining() && raw.read(head) >= 0) {
            // fill up to 8 bytes
        }
        int n = head.position();
        this.codec = Codec.detect(head.array(), n);
        this.buf = ByteBuffer.allocateDirect(o.bufferBytes);
        this.words = new long[o.bufferBytes >>> 3];
        if (codec == Codec.NONE) {
            this.in = raw;
            buf.put(head.array(), 0, n);
        } else {
            this.in = codec.decode(new PrefixChannel(head.array(), n, raw));
        }
        buf.flip();
        lim = buf.limit();
        fillOrFail();
        if (lim == 0) {
            throw new TraceFormatException(name, 0, "empty trace file (no records)");
        }
        detectOrder(o.order);
    }

    /** Opens a file. Missing or unreadable files give a {@link BadInputException}. */
    public static TraceReader open(Path file, Options o) throws IOException {
        FileChannel ch;
        try {
            ch = FileChannel.open(file, StandardOpenOption.READ);
        } catch (NoSuchFileException e) {
            throw new BadInputException(file + ": no such trace file");
        } catch (AccessDeniedException e) {
            throw new BadInputException(file + ": trace file is not readable (permission denied)");
        }
        if (Files.isDirectory(file)) {
            ch.close();
            throw new BadInputException(file + ": is a directory, not a trace file");
        }
        try {
            return new TraceReader(ch, file.toString(), o);
        } catch (IOException | RuntimeException e) {
            ch.close();
            throw e;
        }
    }

    /** Opens a file with default options. */
    public static TraceReader open(Path file) throws IOException {
        return open(file, Options.defaults());
    }

    private void detectOrder(ByteOrder forced) {
        int beWord = buf.order(ByteOrder.BIG_ENDIAN).getInt(0);
        int leWord = lim >= 4 ? Integer.reverseBytes(beWord) : 0;
        if (lim >= 8 && beWord == SmaitFormat.HEADER_MAGIC) {
            order = ByteOrder.BIG_ENDIAN;
        } else if (lim >= 8 && leWord == SmaitFormat.HEADER_MAGIC) {
            order = ByteOrder.LITTLE_ENDIAN;
        } else {
            order = forced != null ? forced : (looksLittleEndian() ? ByteOrder.LITTLE_ENDIAN : ByteOrder.BIG_ENDIAN);
        }
        buf.order(order);
        big = order == ByteOrder.BIG_ENDIAN;
        view = buf.duplicate().clear().order(order).asLongBuffer();
        toWords();
        if (lim >= 8 && buf.getInt(0) == SmaitFormat.HEADER_MAGIC) {
            int word = buf.getInt(4);
            int major = word >>> 24;
            if (major != SmaitFormat.VERSION_MAJOR) {
                throw new TraceFormatException(name, 0, "unsupported extended format version " + major
                        + " (this reader knows " + SmaitFormat.VERSION_MAJOR + ")");
            }
            headerFlags = word & 0xFFFF;
            extended = true;
            addr64 = (headerFlags & SmaitFormat.FLAG_ADDR64) != 0;
            pos = SmaitFormat.SIMPLE;
            nonRecordBytes = SmaitFormat.SIMPLE;
        }
    }

    /** Headerless: little-endian only if certain (see {@link SmaitFormat}). */
    private boolean looksLittleEndian() {
        if (lim < SmaitFormat.SIMPLE) {
            return false;
        }
        ByteBuffer b = buf.duplicate().order(ByteOrder.BIG_ENDIAN);
        int be = b.getInt(0);
        if (validFirstWord(be)) {
            if (lim < LE_EVIDENCE * SmaitFormat.SIMPLE) {
                return false;
            }
            // Every one of the first records valid read little-endian, some memory or call records among them,
            // and not one memory or call record read big-endian (a big-endian SMAIT file has them early).
            int n = Math.min(lim / SmaitFormat.SIMPLE, 4096);
            boolean memOrCall = false;
            for (int i = 0; i < n; i++) {
                int w = b.getInt(i * SmaitFormat.SIMPLE);
                int le = Integer.reverseBytes(w);
                if ((w >>> 28) == 0 || !validFirstWord(le)) {
                    return false;
                }
                memOrCall |= (le >>> 28) == 0;
            }
            return memOrCall;
        }
        if (lim < SmaitFormat.CALL_BYTES) {
            return false;
        }
        int type = (Integer.reverseBytes(be) >>> 4) & 0xFF;
        for (int i = 0; i < SmaitFormat.CALL_PARTS; i++) {
            if (Integer.reverseBytes(b.getInt(i * SmaitFormat.SIMPLE)) != SmaitFormat.callTag(type, i)) {
                return false;
            }
        }
        return CallType.isKnown(type);
    }

    private static boolean validFirstWord(int f1) {
        int top = f1 >>> 28;
        if (top == 0) {
            return f1 < 0x1000 ? MemType.valid(f1) : f1 < 0x2000 && CallType.isKnown((f1 >>> 4) & 0xFF);
        }
        return top == 4 || top == 8 || top == 0xC;
    }

    /** Refills the buffer so that at least one call record is available if the stream has it. */
    private void fill() throws IOException {
        if (eofSeen) {
            return;
        }
        buf.limit(lim).position(pos);
        base += pos;
        buf.compact();
        pos = 0;
        while (buf.hasRemaining()) {
            int r = in.read(buf);
            if (r < 0) {
                eofSeen = true;
                break;
            }
            if (r == 0 && buf.position() >= SmaitFormat.CALL_BYTES) {
                break;
            }
        }
        lim = buf.position();
        fastEnd = lim - SmaitFormat.CALL_BYTES + 1;
        buf.limit(buf.capacity());
        if (view != null) {
            toWords();
        }
    }

    /** Copies the buffer's simple records into {@link #words}, each as first field &lt;&lt; 32 | second field. */
    private void toWords() {
        int n = lim >>> 3;
        view.get(0, words, 0, n);
        if (!big) {
            long[] w = words;
            for (int i = 0; i < n; i++) {
                w[i] = Long.rotateLeft(w[i], 32);
            }
        }
    }

    /**
     * Decodes the next record.
     *
     * @return a {@link RecordKind} constant, {@link RecordKind#EOF} at the end
     * @throws TraceFormatException on bad input (unless skipping)
     * @throws UncheckedIOException if the file cannot be read
     */
    public int next() {
        int p = pos;
        if (p < fastEnd) {
            // Hot path: one 8-byte load, a table lookup, three field stores, no allocation. Memory and branch
            // records only; the accessors decode the kept simple record. Calls, extensions, refills and errors
            // are in slowNext().
            long v = words[p >>> 3];
            int f1 = (int) (v >>> 32);
            int k = (f1 >>> 12) == 0 ? MEM_KIND[f1] : TOP_KIND[f1 >>> 28];
            if (k == RecordKind.FETCH && !(extended && (f1 & 0xFFFF0000) == SmaitFormat.TAG_FETCH
                    && (f1 & 0xFFFF) != 0)) {
                k = 0;
            }
            if (k != 0) {
                pos = p + SmaitFormat.SIMPLE;
                cur = v;
                return k;
            }
        }
        return slowNext();
    }

    /**
     * Batch form of {@link #next()} for the common records: copies the following memory, branch, procedure and
     * fetch records, up to {@code max} of them, into {@code dst} from {@code off} as raw simple-record words (first
     * field in bits 63..32, second field in 31..0, whatever the file's byte order; {@link #wordKind(long)} gives a
     * word's kind, the first field decodes as in the format table, the address is {@link #addressHigh()} | the low
     * 32 bits) and returns how many. It stops before any other record (calls, address-high and wide records, bad
     * input) and at the end of the buffered bytes, so every word of a batch shares {@link #addressHigh()}.
     * Returns 0 when the next record needs {@link #next()}: call it then (it also refills and reports the end of
     * the file). Afterwards the accessors describe the last word copied. Allocates nothing.
     */
    public int nextBatch(long[] dst, int off, int max) {
        int p = pos;
        if ((p & 7) != 0 || max <= 0) {
            return 0;
        }
        int i = p >>> 3;
        int end = Math.min(lim >>> 3, i + Math.min(max, dst.length - off));
        long[] w = words;
        boolean ext = extended;
        int j = i;
        int d = off - i;
        while (j < end) {
            long v = w[j];
            int f1 = (int) (v >>> 32);
            if ((f1 >>> 12) == 0 ? !MEM_VALID[f1] : BRANCH_KIND[f1 >>> 28] == 0
                    && !(ext && (f1 & 0xFFFF0000) == SmaitFormat.TAG_FETCH && (f1 & 0xFFFF) != 0)) {
                break;
            }
            dst[d + j] = v;
            j++;
        }
        if (j > i) {
            pos = j << 3;
            cur = w[j - 1];
        }
        return j - i;
    }

    /** Index in {@link #runWords()} of the first word of the last {@link #nextRun}. */
    private int runStart;

    /**
     * Zero-copy form of {@link #nextBatch}: the same records, left in the reader's own array; returns how many,
     * found at {@link #runWords()} from {@link #runStart()}. Those words are read-only and valid until the next
     * call of any reading method.
     */
    public int nextRun(int max) {
        int p = pos;
        if ((p & 7) != 0 || max <= 0) {
            return 0;
        }
        int i = p >>> 3;
        int end = Math.min(lim >>> 3, i + max);
        long[] w = words;
        boolean ext = extended;
        int j = i;
        while (j < end) {
            int f1 = (int) (w[j] >>> 32);
            if ((f1 >>> 12) == 0 ? !MEM_VALID[f1] : BRANCH_KIND[f1 >>> 28] == 0
                    && !(ext && (f1 & 0xFFFF0000) == SmaitFormat.TAG_FETCH && (f1 & 0xFFFF) != 0)) {
                break;
            }
            j++;
        }
        runStart = i;
        if (j > i) {
            pos = j << 3;
            cur = w[j - 1];
        }
        return j - i;
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
        int f1 = (int) (word >>> 32);
        return (f1 >>> 12) == 0 ? RecordKind.MEMORY : TOP_KIND[f1 >>> 28];
    }

    /** Bits 63..32 of the addresses of the current record and of the words of the last {@link #nextBatch}. */
    public long addressHigh() {
        return addrHi;
    }

    private int slowNext() {
        for (;;) {
            if (lim - pos < SmaitFormat.CALL_BYTES && !eofSeen) {
                fillOrFail();
            }
            int avail = lim - pos;
            if (avail < SmaitFormat.SIMPLE) {
                if (avail == 0) {
                    cur = EOF_WORD;
                    return RecordKind.EOF;
                }
                bad(avail, "truncated record: " + avail + " trailing byte" + (avail == 1 ? "" : "s")
                        + " (a simple record has 8)");
                continue;
            }
            int f1 = buf.getInt(pos);
            int f2 = buf.getInt(pos + 4);
            int top = f1 >>> 28;
            if (top == 0 && f1 < 0x1000) {
                if (!MEM_VALID[f1]) {
                    bad(SmaitFormat.SIMPLE, String.format("bad memory-access type field %08x", f1));
                    continue;
                }
                return simple(f1, f2, RecordKind.MEMORY);
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
                        bad(SmaitFormat.SIMPLE, String.format("bad extension record %08x %08x", f1, f2));
                        continue;
                    }
                    break;
                case 4:
                case 8:
                case 0xC:
                    return simple(f1, f2, BRANCH_KIND[top]);
                default:
                    break;
            }
            bad(SmaitFormat.SIMPLE, unknownTagMessage(f1));
        }
    }

    /** Makes the simple record (f1, f2) at {@link #pos} the current record of kind {@code k}. */
    private int simple(int f1, int f2, int k) {
        pos += SmaitFormat.SIMPLE;
        cur = ((long) f1 << 32) | (f2 & 0xFFFFFFFFL);
        return k;
    }

    private void fillOrFail() {
        try {
            fill();
        } catch (IOException e) {
            if (codec != Codec.NONE) {
                throw new TraceFormatException(name, base + lim, "corrupt or truncated " + codec.name().toLowerCase()
                        + " stream: " + e.getMessage());
            }
            throw new UncheckedIOException(name + ": cannot read: " + e.getMessage(), e);
        }
    }

    private String unknownTagMessage(int f1) {
        if (f1 == SmaitFormat.HEADER_MAGIC) {
            return "extended-format header in the middle of a file";
        }
        if ((f1 >>> 28) == 1 && !extended) {
            return String.format("unknown record tag %08x (an extension record in a headerless classic file)", f1);
        }
        return String.format("unknown record tag %08x", f1);
    }

    /** Returns 0 if the record was consumed without producing one, -1 if bad, else the kind. */
    private int extension(int f1, int f2) {
        int sub = f1 & 0xFF000000;
        if (sub == SmaitFormat.TAG_ADDR_HI && (f1 & 0x00FFFFFF) == 0) {
            if (!addr64) {
                return -1;
            }
            addrHi = (f2 & 0xFFFFFFFFL) << 32;
            pos += SmaitFormat.SIMPLE;
            nonRecordBytes += SmaitFormat.SIMPLE;
            return 0;
        }
        if (sub == SmaitFormat.TAG_FETCH) {
            int len = f1 & 0x00FFFFFF;
            if (len < 1 || len > 0xFFFF) {
                return -1;
            }
            simple(f1, f2, RecordKind.FETCH);
            return RecordKind.FETCH;
        }
        if (sub == SmaitFormat.TAG_WIDE_MEM) {
            int k = (f1 >>> 20) & 0xF;
            int reg = (f1 >>> 16) & 0xF;
            int size = f1 & 0xFFFF;
            if (k > 1 || reg > MemType.VECTOR || size == 0) {
                return -1;
            }
            simple(f1, f2, RecordKind.MEMORY);
            return RecordKind.MEMORY;
        }
        return -1;
    }

    private boolean readCall(int f1) {
        int t = (f1 >>> 4) & 0xFF;
        int part0 = f1 & 0xF;
        if (part0 != 0) {
            bad(SmaitFormat.SIMPLE, String.format("call record part %d of type %02x (%s) without part 0", part0,
                    t, CallType.name(t)));
            return false;
        }
        if (!CallType.isKnown(t)) {
            bad(SmaitFormat.SIMPLE, String.format("unknown call type %02x in record tag %08x", t, f1));
            return false;
        }
        int have = (lim - pos) / SmaitFormat.SIMPLE;
        for (int i = 0; i < SmaitFormat.CALL_PARTS; i++) {
            if (i >= have) {
                String what = String.format("truncated call record of type %02x (%s): part %d missing at end of"
                        + " file", t, CallType.name(t), i);
                // skip the parts that are there
                bad(i * SmaitFormat.SIMPLE + (lim - pos) % SmaitFormat.SIMPLE, what);
                return false;
            }
            int g = buf.getInt(pos + i * SmaitFormat.SIMPLE);
            if (g != SmaitFormat.callTag(t, i)) {
                String found;
                if ((g >>> 12) == 1 && ((g >>> 4) & 0xFF) == t) {
                    found = "part " + (g & 0xF);
                } else {
                    found = String.format("record tag %08x", g);
                }
                bad(i * SmaitFormat.SIMPLE, String.format("call record of type %02x (%s): part %d expected at byte"
                        + " offset %d, found %s", t, CallType.name(t), i, base + pos + (long) i * SmaitFormat.SIMPLE,
                        found));
                return false;
            }
            callWords[i] = buf.getInt(pos + i * SmaitFormat.SIMPLE + 4);
        }
        callType = t;
        cur = (long) SmaitFormat.callTag(t, 0) << 32;
        pos += SmaitFormat.CALL_BYTES;
        nonRecordBytes += SmaitFormat.CALL_BYTES - SmaitFormat.SIMPLE;
        return true;
    }

    /** Reports a bad record spanning {@code len} bytes at the current position: throw, or skip and count. */
    private void bad(int len, String what) {
        if (!skipBad) {
            throw new TraceFormatException(name, base + pos, what);
        }
        skipped++;
        int n = Math.min(Math.max(len, 1), lim - pos);
        pos += n;
        nonRecordBytes += n;
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

    /** Byte offset of the current record in the uncompressed stream. */
    public long offset() {
        long end = base + pos;
        int k = kind();
        return k == RecordKind.EOF ? end : end - (k == RecordKind.CALL ? SmaitFormat.CALL_BYTES : SmaitFormat.SIMPLE);
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
            return f < 0x1000 ? MEM_BYTES[f] : f & 0xFFFF;
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

    /** Call record: call type ({@link CallType}). */
    public int callType() {
        return callType;
    }

    /** Call record: start time field (µs, unsigned 32 bits). */
    public long startTime() {
        return callWords[0] & 0xFFFFFFFFL;
    }

    /** Call record: end time field (µs, unsigned 32 bits). */
    public long endTime() {
        return callWords[1] & 0xFFFFFFFFL;
    }

    /** Call record: argument {@code i} (1&ndash;4), unsigned 32 bits. */
    public long arg(int i) {
        return callWords[1 + i] & 0xFFFFFFFFL;
    }

    // ---- about the file ----

    /** The file's name as given. */
    public String name() {
        return name;
    }

    /** Byte order in use. */
    public ByteOrder order() {
        return order;
    }

    /** True if the file has the extended header. */
    public boolean extended() {
        return extended;
    }

    /** True if the header allows 64-bit addresses. */
    public boolean addr64() {
        return addr64;
    }

    /** Flags of the extended header ({@link SmaitFormat#FLAG_ADDR64}); 0 for a classic file. */
    public int headerFlags() {
        return headerFlags;
    }

    /** Codec the file was compressed with. */
    public Codec codec() {
        return codec;
    }

    /** Bad records skipped so far (only with skipping on). */
    public long skipped() {
        return skipped;
    }

    /** Records returned so far (a call record counts once). */
    public long records() {
        return (base + pos - nonRecordBytes) / SmaitFormat.SIMPLE;
    }

    @Override
    public void close() throws IOException {
        in.close();
    }

    /** A channel that first returns a few already-read bytes, then the rest of another channel. */
    private static final class PrefixChannel implements ReadableByteChannel {
        private final byte[] head;
        private int headPos;
        private final int headLen;
        private final ReadableByteChannel rest;

        PrefixChannel(byte[] head, int n, ReadableByteChannel rest) {
            this.head = head;
            this.headLen = n;
            this.rest = rest;
        }

        @Override
        public int read(ByteBuffer dst) throws IOException {
            if (headPos < headLen) {
                int n = Math.min(dst.remaining(), headLen - headPos);
                dst.put(head, headPos, n);
                headPos += n;
                return n;
            }
            return rest.read(dst);
        }

        @Override
        public boolean isOpen() {
            return rest.isOpen();
        }

        @Override
        public void close() throws IOException {
            rest.close();
        }
    }
}
