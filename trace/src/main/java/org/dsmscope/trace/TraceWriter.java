package org.dsmscope.trace;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.channels.WritableByteChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * Streaming writer of one SMAIT trace file (seed 000 Appendix A; extensions in {@link SmaitFormat}).
 *
 * <p>Records go into a small {@code long[]} (one array store each, first field in the high half; the chunk is
 * rotated in place for a little-endian file) that is copied in bulk into a 256 KiB direct buffer in the file's
 * byte order, written out in one write when full; nothing is allocated per record. Batches ({@link
 * #raw(int[], int, int)}, {@link #words}) fill the small array in one loop or one copy. A classic
 * writer (no header) refuses what classic SMAIT cannot hold: extension records and addresses beyond 32 bits. An
 * extended writer writes a header and, with {@link Options#addr64}, address-high records when an address's
 * upper 32 bits change. Not thread-safe: one writer per thread file.
 */
public final class TraceWriter implements AutoCloseable {

    /** How a file is written. */
    public static final class Options {
        ByteOrder order = ByteOrder.BIG_ENDIAN;
        boolean extended;
        boolean addr64;
        boolean endRecord;
        Codec codec = Codec.NONE;
        int bufferBytes = 1 << 20;
        boolean background;
        boolean continuation;

        /** Byte order (big-endian by default, as PA-RISC wrote). */
        public Options order(ByteOrder o) {
            this.order = o;
            return this;
        }

        /** Write the extended header, allowing extension records. */
        public Options extended(boolean e) {
            this.extended = e;
            return this;
        }

        /** Allow 64-bit addresses (implies extended). */
        public Options addr64(boolean a) {
            this.addr64 = a;
            if (a) {
                this.extended = true;
            }
            return this;
        }

        /**
         * Promise an end record (header flag {@link SmaitFormat#FLAG_END}; implies extended): the producer calls
         * {@link TraceWriter#end()} once every record is written, so that readers recognize a file cut short.
         */
        public Options endRecord(boolean e) {
            this.endRecord = e;
            if (e) {
                this.extended = true;
            }
            return this;
        }

        /** True if files written with these options promise an end record. */
        public boolean endRecord() {
            return endRecord;
        }

        /**
         * Records that continue a stream another writer of these options began (its parts written one after the
         * other form one stream): no header, and the address-high word in force is taken as unknown, so that an
         * address-high record goes before the first address whatever the writer before left in force.
         */
        public Options continuation(boolean c) {
            this.continuation = c;
            return this;
        }

        /** Compression codec. */
        public Options codec(Codec c) {
            this.codec = c;
            return this;
        }

        /**
         * Compress and write full buffers on a background thread while the caller fills the next one (for bulk
         * writers such as convert, import and gen; off by default, and a file smaller than one buffer never
         * starts the thread). I/O errors surface at a later record or at {@link TraceWriter#close}.
         */
        public Options background(boolean b) {
            this.background = b;
            return this;
        }

        /** Size of the write buffer in bytes (a multiple of 48 is rounded to; at most 256 KiB is used). */
        public Options bufferBytes(int n) {
            this.bufferBytes = Math.max(SmaitFormat.CALL_BYTES, n - n % SmaitFormat.CALL_BYTES);
            return this;
        }

        /** A copy of these options (to change some for one writer). */
        public Options copy() {
            Options c = new Options();
            c.order = order;
            c.extended = extended;
            c.addr64 = addr64;
            c.endRecord = endRecord;
            c.continuation = continuation;
            c.codec = codec;
            c.bufferBytes = bufferBytes;
            c.background = background;
            return c;
        }

        /** Classic SMAIT: big-endian, headerless, uncompressed. */
        public static Options classic() {
            return new Options();
        }
    }

    /** Write buffer at most: one LZ4 block, compressed straight from it; bigger measured no faster. */
    static final int WRITE_BYTES = 1 << 18;
    /** Staged records at most (32 KiB). */
    private static final int STAGE_WORDS = 4096;

    private final String name;
    private final WritableByteChannel out;
    private ByteBuffer buf;
    /**
     * Records not yet in {@link #buf}, first field in the high half whatever the file's order (rotated in place
     * just before the copy for a little-endian file); small (32 KiB at most), so that it stays in the L1 cache.
     */
    private final long[] words;
    /** {@link #buf} as longs in the file's byte order. */
    private java.nio.LongBuffer view;
    private final ByteOrder order;
    /** The I/O thread's side with {@link Options#background}, else null. */
    private final BackgroundWrite background;
    /** Records in {@link #buf}, and how many it holds. */
    private int filled;
    private final int bufWords;
    /** False for a little-endian file: its staged words are rotated (second field high) before the copy. */
    private final boolean big;
    private final boolean extended;
    private final boolean addr64;
    /** The header promises an end record; {@link #ended} once it is written. */
    private final boolean endRecord;
    private boolean ended;
    /** Records in {@link #words}. */
    private int count;
    private long addrHi;
    private long written;
    private boolean closed;

    /** Writes to {@code out}; {@code name} names the destination in error messages. */
    public TraceWriter(WritableByteChannel out, String name, Options o) throws IOException {
        this.name = name;
        this.out = o.codec.encode(out, Math.min(o.bufferBytes, WRITE_BYTES));
        this.buf = ByteBuffer.allocateDirect(Math.min(o.bufferBytes, WRITE_BYTES)).order(o.order);
        this.bufWords = buf.capacity() / SmaitFormat.SIMPLE;
        this.words = new long[Math.min(bufWords, STAGE_WORDS)];
        this.view = buf.duplicate().order(o.order).asLongBuffer();
        this.order = o.order;
        if (o.background) {
            ByteBuffer[] spares = new ByteBuffer[BackgroundWrite.BUFFERS - 1];
            for (int i = 0; i < spares.length; i++) {
                spares[i] = ByteBuffer.allocateDirect(buf.capacity()).order(o.order);
            }
            this.background = new BackgroundWrite(this.out, name, spares);
        } else {
            this.background = null;
        }
        this.big = o.order == ByteOrder.BIG_ENDIAN;
        this.extended = o.extended || o.addr64;
        this.addr64 = o.addr64;
        this.endRecord = o.endRecord;
        if (o.continuation) {
            addrHi = addr64 ? -1 : 0; // no high word is -1 (they are 32 bits); without addr64 it is always 0
        } else if (extended) {
            put(SmaitFormat.HEADER_MAGIC, SmaitFormat.headerWord((addr64 ? SmaitFormat.FLAG_ADDR64 : 0)
                    | (endRecord ? SmaitFormat.FLAG_END : 0)));
        }
    }

    /**
     * Creates (or truncates) {@code file} and writes to it through {@code files}, which keeps a bounded number of
     * files open (for one file per thread of programs with more threads than open files allowed).
     */
    public static TraceWriter create(Path file, Options o, OpenFiles files) throws IOException {
        OpenFiles.File ch = files.create(file);
        try {
            return new TraceWriter(ch, file.toString(), o);
        } catch (IOException | RuntimeException e) {
            ch.close();
            throw e;
        }
    }

    /** Creates (or truncates) {@code file} and writes to it. */
    public static TraceWriter create(Path file, Options o) throws IOException {
        FileChannel ch = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.TRUNCATE_EXISTING);
        try {
            return new TraceWriter(ch, file.toString(), o);
        } catch (IOException | RuntimeException e) {
            ch.close();
            throw e;
        }
    }

    /** True if this writer writes the extended format. */
    public boolean extended() {
        return extended;
    }

    /** Bytes of records written so far (uncompressed, header included). */
    public long bytesWritten() {
        return written + (long) (filled + count) * SmaitFormat.SIMPLE;
    }

    /** True if this writer allows 64-bit addresses. */
    public boolean addr64() {
        return addr64;
    }

    private void put(int f1, int f2) {
        int c = count;
        if (c == words.length) {
            stage();
            c = 0;
        }
        // One array store, first field high; the byte order is applied to the whole chunk when it is staged.
        words[c] = ((long) f1 << 32) | (f2 & 0xFFFFFFFFL);
        count = c + 1;
    }

    /** Writes one raw simple record as it is (for converters); the caller keeps the format valid. */
    public void raw(int field1, int field2) {
        put(field1, field2);
    }

    /**
     * Writes {@code n} raw simple records from {@code fields} at {@code off}, two ints each (first field, second
     * field, as {@link #raw(int, int)} takes them): a batch for producers that keep records as pairs of ints. The
     * caller keeps the format valid.
     */
    public void raw(int[] fields, int off, int n) {
        int i = off;
        int end = off + 2 * n;
        long[] w = words;
        while (i < end) {
            int c = count;
            if (c == w.length) {
                stage();
                c = 0;
            }
            int stop = Math.min(end, i + 2 * (w.length - c));
            for (; i < stop; i += 2) {
                w[c++] = ((long) fields[i] << 32) | (fields[i + 1] & 0xFFFFFFFFL);
            }
            count = c;
        }
    }

    /**
     * Writes {@code n} simple-record words from {@code src} at {@code off} as they are (first field in bits 63..32;
     * for producers that encode their own records, such as a routed replay's streams): one bulk copy. The caller
     * keeps the format valid.
     */
    public void raw(long[] src, int off, int n) {
        int i = off;
        int end = off + n;
        while (i < end) {
            if (count == words.length) {
                stage();
            }
            int k = Math.min(end - i, words.length - count);
            System.arraycopy(src, i, words, count, k);
            count += k;
            i += k;
        }
    }

    /**
     * Writes {@code n} simple-record words from {@code src} at {@code off} (first field in bits 63..32, as
     * {@link TraceReader#nextRun} and {@link TraceReader#nextBatch} return them) whose addresses have the high word
     * {@code addressHigh} (bits 63..32, in place, as {@link TraceReader#addressHigh()} gives them); an address-high
     * record goes first when it changes, as before a single record. The words must be memory, branch, procedure
     * or fetch records this writer may write (fetch records in the extended format only): only the address width
     * is checked. Copies in bulk, with no work per record.
     */
    public void words(long[] src, int off, int n, long addressHigh) {
        if (n <= 0) {
            return;
        }
        if (addressHigh >>> 32 != addrHi) {
            low(addressHigh | (src[off] & 0xFFFFFFFFL)); // an error names the first word's address
        }
        raw(src, off, n);
    }

    private int low(long address) {
        long hi = address >>> 32;
        if (hi != addrHi) {
            if (!addr64) {
                throw new BadInputException(name + ": address 0x" + Long.toHexString(address)
                        + " does not fit in 32 bits; write the 64-bit variant (extended format with addr64)");
            }
            put(SmaitFormat.TAG_ADDR_HI, (int) hi);
            addrHi = hi;
        }
        return (int) address;
    }

    /** A memory access of {@code bytes} bytes; kind {@link MemType#LOAD} or {@link MemType#STORE}. */
    public void memory(int kind, int bytes, int reg, long address) {
        int lo = low(address);
        if (MemType.encodable(kind, bytes, reg)) {
            put(MemType.encode(kind, bytes, reg), lo);
        } else {
            if (!extended) {
                throw new BadInputException(name + ": a " + bytes + "-byte access has no SMAIT size code;"
                        + " write the extended format");
            }
            if (bytes < 1 || bytes > 0xFFFF || kind < 0 || kind > 1 || reg < 0 || reg > MemType.VECTOR) {
                throw new IllegalArgumentException("access kind " + kind + " size " + bytes + " reg " + reg);
            }
            put(SmaitFormat.TAG_WIDE_MEM | (kind << 20) | (reg << 16) | bytes, lo);
        }
    }

    /** A memory access given by its type field (see {@link MemType}). */
    public void memoryType(int type, long address) {
        put(type, low(address));
    }

    /**
     * A call record: six simple records. Times are microseconds, kept modulo 2^32 as the seed's 32-bit field is.
     * Arguments are 32-bit fields: an argument must lie in [-2^31, 2^32) (a negative int is written as its
     * two's complement); anything wider is refused rather than truncated.
     */
    public void call(int type, long start, long end, long arg1, long arg2, long arg3, long arg4) {
        if (type < 0 || type > 0xFF) {
            throw new IllegalArgumentException("call type " + type + " does not fit two hex digits");
        }
        checkArg(type, 1, arg1);
        checkArg(type, 2, arg2);
        checkArg(type, 3, arg3);
        checkArg(type, 4, arg4);
        int base = 0x00001000 | ((type & 0xFF) << 4);
        put(base, (int) start);
        put(base | 1, (int) end);
        put(base | 2, (int) arg1);
        put(base | 3, (int) arg2);
        put(base | 4, (int) arg3);
        put(base | 5, (int) arg4);
    }

    private void branchRecord(int top, long source, long target) {
        if ((source >>> 32) != (target >>> 32)) {
            throw new BadInputException(name + ": branch from 0x" + Long.toHexString(source) + " to 0x"
                    + Long.toHexString(target) + " crosses a 4 GiB boundary; a branch record holds one high word");
        }
        if ((source & 0xFFFFFFFFL) > SmaitFormat.BRANCH_FIELD_MASK) {
            throw new BadInputException(name + ": code address 0x" + Long.toHexString(source)
                    + " does not fit the 28 bits of a branch record");
        }
        int lo = low(target);
        put((top << 28) | (int) (source & SmaitFormat.BRANCH_FIELD_MASK), lo);
    }

    private void checkArg(int type, int i, long v) {
        if (v < Integer.MIN_VALUE || v > 0xFFFFFFFFL) {
            throw new BadInputException(name + ": argument " + i + " of a " + CallType.name(type) + " call record,"
                    + " 0x" + Long.toHexString(v) + ", does not fit its 32-bit field");
        }
    }

    /** Copies the current record of {@code r} exactly (memory type field, wide records, call fields). */
    public void copy(TraceReader r) {
        switch (r.kind()) {
            case RecordKind.MEMORY:
                if (r.wide()) {
                    memory(r.isStore() ? MemType.STORE : MemType.LOAD, r.size(), r.regType(), r.address());
                } else {
                    memoryType(r.memType(), r.address());
                }
                break;
            case RecordKind.CALL:
                call(r.callType(), r.startTime(), r.endTime(), r.arg(1), r.arg(2), r.arg(3), r.arg(4));
                break;
            case RecordKind.PROC_START:
                procStart(r.address());
                break;
            case RecordKind.BRANCH:
                branch(r.source(), r.target());
                break;
            case RecordKind.PROC_CALL:
                procCall(r.source(), r.target());
                break;
            case RecordKind.FETCH:
                fetch(r.address(), r.size());
                break;
            default:
                throw new IllegalStateException("no current record to copy (kind " + r.kind() + ")");
        }
    }

    /** A procedure start record ({@code 40000000 address}). */
    public void procStart(long address) {
        put(0x40000000, low(address));
    }

    /** A taken branch record: {@code source} is the branch's address + 4, {@code target} the target. */
    public void branch(long source, long target) {
        branchRecord(0x8, source, target);
    }

    /** A procedure call record: {@code source} is the call's address + 4, {@code target} the procedure. */
    public void procCall(long source, long target) {
        branchRecord(0xC, source, target);
    }

    /** An instruction fetch of {@code bytes} bytes (extension record; extended format only). */
    public void fetch(long address, int bytes) {
        if (!extended) {
            throw new BadInputException(name + ": instruction-fetch records need the extended format");
        }
        if (bytes < 1 || bytes > 0xFFFF) {
            throw new IllegalArgumentException("instruction length " + bytes);
        }
        int lo = low(address);
        put(SmaitFormat.TAG_FETCH | bytes, lo);
    }

    /**
     * Writes the end record that {@link Options#endRecord} promised: every record is written and the file is
     * complete. Call it once, last, before {@link #close()}; a writer closed without it (its producer failed) leaves
     * a file that readers refuse as cut short.
     */
    public void end() {
        if (!endRecord || ended) {
            throw new IllegalStateException(name + ": " + (ended ? "end record already written"
                    : "no end record promised (Options.endRecord)"));
        }
        put(SmaitFormat.TAG_END, (int) (bytesWritten() / SmaitFormat.SIMPLE));
        ended = true;
    }

    /**
     * The producer has written every record: writes the end record if {@link Options#endRecord} promised one,
     * then closes the file. (A writer only closed, after its producer failed, leaves a file readers refuse.)
     */
    public void finish() throws IOException {
        if (endRecord && !ended && !closed) {
            end();
        }
        close();
    }

    /** Moves the staged records into {@link #buf} (in the file's byte order), writing it out whenever full. */
    private void stage() {
        int c = count;
        long[] w = words;
        if (!big) {
            // little-endian: the first field goes into the low half, which the little-endian view stores first
            for (int i = 0; i < c; i++) {
                w[i] = Long.rotateLeft(w[i], 32);
            }
        }
        int off = 0;
        while (off < c) {
            int k = Math.min(bufWords - filled, c - off);
            view.put(filled, w, off, k);
            filled += k;
            off += k;
            if (filled == bufWords) {
                writeBuffer();
            }
        }
        count = 0;
    }

    private void flushBuffer() {
        stage();
        writeBuffer();
    }

    private void writeBuffer() {
        buf.limit(filled * SmaitFormat.SIMPLE).position(0);
        filled = 0;
        if (background != null) {
            written += buf.limit();
            buf = background.swap(buf);
            view = buf.duplicate().order(order).asLongBuffer();
            return;
        }
        try {
            while (buf.hasRemaining()) {
                written += out.write(buf);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(name + ": cannot write trace: " + e.getMessage(), e);
        }
        buf.clear();
    }

    /** Writes buffered records to the channel, or with {@link Options#background} hands them to its thread (not a durability guarantee). */
    public void flush() {
        flushBuffer();
    }

    /** Flushes and closes the file (finishing the compressed frame). */
    @Override
    public void close() throws IOException {
        if (closed) {
            return;
        }
        closed = true;
        try {
            if (background != null) {
                stage();
                buf.limit(filled * SmaitFormat.SIMPLE).position(0);
                written += buf.limit();
                filled = 0;
                background.finish(buf);
            } else {
                flushBuffer();
            }
        } finally {
            out.close();
        }
    }
}
