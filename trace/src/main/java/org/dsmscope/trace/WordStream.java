package org.dsmscope.trace;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.channels.ReadableByteChannel;

/**
 * The stream layer under {@link TraceReader} (seed 000 Appendix A, extensions in {@link SmaitFormat}): one trace
 * stream as chunks of simple-record words. It detects the codec from the first bytes and opens the stream's
 * {@link WordSource} (uncompressed files mapped, the others read through a buffer), sizes the chunk (no larger than
 * a small file), refills it, reads the extended header and settles the byte order, and keeps the stream's
 * positions and its trailing bytes, the header's properties, and the bad records skipped (a reader made with {@link
 * TraceReader.Options#skipBadRecords}). {@link RoutedStream} adds a routed stream's records, {@link TraceReader}
 * decodes and checks the records of the chunk; its hot path reads these fields as its own (one object: no
 * indirection). Not thread-safe.
 */
abstract class WordStream {
    /**
     * Read buffer at most (one LZ4 block: decompressed straight into it, it is still in the L2 cache when the
     * chunks are copied out; larger buffers measured slower).
     */
    static final int READ_BYTES = 1 << 18;
    /**
     * Words in the record chunk at most (64 KiB, in the L2 cache; a run of 1024 words stays in the L1 cache while
     * the caller works on it). Measured: {@code nextRun} 13% faster than with 32 KiB, 64 KiB to 256 KiB alike.
     */
    static final int CHUNK_WORDS = 8192;
    /** Words in the record chunk at least when the file is smaller than {@link #CHUNK_WORDS} words. */
    static final int MIN_CHUNK_WORDS = 64;

    final String name;
    final WordSource src;
    /**
     * The current chunk of simple records, first field in the high half whatever the file's byte order (the hot
     * path reads only this array; small enough to stay in the L1 cache).
     */
    final long[] words;
    final Codec codec;
    ByteOrder order;
    boolean extended;
    boolean addr64;
    int headerFlags;
    /** The header promises an end record ({@link SmaitFormat#FLAG_END}). */
    boolean endPromised;
    /** The source is exhausted: {@link #avail} words and {@link #tail} trailing bytes are all that is left. */
    boolean eofSeen;
    int tail;
    /** Trailing bytes consumed (skipped) at the end of the stream. */
    int tailDone;
    /** Stream offset of words[0]. */
    long base;
    /** Index of the next word. */
    int wi;
    /** Words held in {@link #words}. */
    int avail;
    /** Bytes of the stream consumed that are not one simple record per record (header, call parts 2-6, skips). */
    long nonRecordBytes;
    /** Skip bad records instead of failing ({@link TraceReader.Options#skipBadRecords}). */
    final boolean skipBad;
    private long skipped;
    /** Where the first skipped record was and what was wrong with it ("byte offset N: what"), or null. */
    private String firstSkipped;

    /** Opens the stream of {@code raw}; {@code name} names the file in messages. Reads no word yet. */
    WordStream(ReadableByteChannel raw, String name, TraceReader.Options o) throws IOException {
        this.name = name;
        this.skipBad = o.skipBad;
        ByteBuffer head = ByteBuffer.allocate(8);
        while (head.hasRemaining() && raw.read(head) >= 0) {
            // fill up to 8 bytes
        }
        int n = head.position();
        this.codec = Codec.detect(head.array(), n);
        int chunk = Math.min(o.bufferBytes >>> 3, CHUNK_WORDS);
        if (codec == Codec.NONE && raw instanceof FileChannel && !o.liveHints) {
            // a small file needs no more words than it holds: a replay keeps one reader per thread open, and a
            // trace set may have thousands of threads of a few records each
            FileChannel fc = (FileChannel) raw;
            long left = fc.size() - (fc.position() - n);
            chunk = (int) Math.min(chunk, Math.max(MIN_CHUNK_WORDS, (left >>> 3) + 1));
        }
        this.words = new long[Math.max(SmaitFormat.CALL_PARTS, chunk)];
        WordSource s = null;
        if (codec == Codec.NONE && raw instanceof FileChannel && o.mapBytes > 0) {
            FileChannel fc = (FileChannel) raw;
            long start = fc.position() - n;
            if (n == 8 && fc.size() >= start + 8) {
                s = new WordSource.Mapped(fc, start, o.mapBytes);
            }
        }
        if (s == null) {
            s = new WordSource.Channel(codec == Codec.NONE ? raw : codec.decode(new WordSource.PrefixChannel(head.array(), n,
                    raw)), Math.min(o.bufferBytes, READ_BYTES), head.array(), codec == Codec.NONE ? n : 0);
        }
        this.src = s;
    }

    /**
     * Opens the simple records of the uncompressed file {@code fc} from {@code from} (a {@link TraceReader#mark} of
     * a reader of the same file) up to byte offset {@code to}, with the file's header state, order and positions as
     * the mark says; reads no byte outside the range (not even the header).
     */
    WordStream(FileChannel fc, String name, TraceReader.Options o, TraceReader.Mark from, long to) throws IOException {
        this.name = name;
        this.skipBad = o.skipBad;
        this.codec = Codec.NONE;
        long span = to - from.offset;
        int chunk = (int) Math.min(Math.min(o.bufferBytes >>> 3, CHUNK_WORDS), Math.max(MIN_CHUNK_WORDS,
                (span >>> 3) + 1));
        this.words = new long[Math.max(SmaitFormat.CALL_PARTS, chunk)];
        if (o.mapBytes > 0) {
            src = new WordSource.Mapped(fc, from.offset, o.mapBytes, to);
        } else {
            fc.position(from.offset);
            src = new WordSource.Channel(WordSource.range(fc, span), Math.min(o.bufferBytes, READ_BYTES), new byte[0], 0);
        }
        base = from.offset;
        order = from.big ? ByteOrder.BIG_ENDIAN : ByteOrder.LITTLE_ENDIAN;
        src.order(from.big);
        extended = from.extended;
        headerFlags = from.headerFlags;
        addr64 = (headerFlags & SmaitFormat.FLAG_ADDR64) != 0;
        // the end record is the file's last: only a range up to the file's end holds it
        endPromised = (headerFlags & SmaitFormat.FLAG_END) != 0 && to >= fc.size();
        nonRecordBytes = from.offset - from.records * SmaitFormat.SIMPLE;
    }

    /**
     * Opens a stream of words handed over in process ({@link WordChannel}): no codec, no byte order to settle (the
     * words come first field high), a chunk of the reader's buffer size. Reads no word yet.
     */
    WordStream(WordChannel in, String name, TraceReader.Options o) {
        this.name = name;
        this.skipBad = o.skipBad;
        this.codec = Codec.NONE;
        this.words = new long[Math.max(SmaitFormat.CALL_PARTS, Math.min(o.bufferBytes >>> 3, CHUNK_WORDS))];
        this.src = new WordSource.Words(in);
    }

    /** Moves the unread words to the front and reads at least one more word unless the stream has ended. */
    final void fill() throws IOException {
        int rem = avail - wi;
        System.arraycopy(words, wi, words, 0, rem);
        base += (long) wi << 3;
        wi = 0;
        avail = rem;
        long[] w = words;
        // Stop once something new is there: a live stream (on-the-fly analysis) must not wait for a full chunk the
        // producer may not write for a long time. TraceReader asks again while a call record is incomplete.
        int min = Math.min(w.length, rem + 1);
        while (avail < min && !eofSeen) {
            int r = src.read(w, avail, w.length - avail);
            if (r == 0) {
                eofSeen = true;
                tail = src.tail();
            }
            avail += r;
        }
    }

    /**
     * Settles the byte order from the first chunk (a header's magic, else {@code forced}, else the shapes of the
     * first records) and reads the extended header: its version, flags, and the reading position past it.
     */
    final void detectOrder(ByteOrder forced) {
        int beWord = avail > 0 ? (int) (words[0] >>> 32) : 0;
        int leWord = Integer.reverseBytes(beWord);
        if (avail > 0 && beWord == SmaitFormat.HEADER_MAGIC) {
            order = ByteOrder.BIG_ENDIAN;
        } else if (avail > 0 && leWord == SmaitFormat.HEADER_MAGIC) {
            order = ByteOrder.LITTLE_ENDIAN;
        } else {
            order = forced != null ? forced : (RecordShapes.looksLittleEndian(words, avail) ? ByteOrder.LITTLE_ENDIAN : ByteOrder.BIG_ENDIAN);
        }
        if (order == ByteOrder.LITTLE_ENDIAN) {
            WordSource.toLittle(words, 0, avail);
            src.order(false);
        }
        if (avail > 0 && (int) (words[0] >>> 32) == SmaitFormat.HEADER_MAGIC) {
            int word = (int) words[0];
            int major = word >>> 24;
            if (major != SmaitFormat.VERSION_MAJOR) {
                throw new TraceFormatException(name, 0, "unsupported extended format version " + major
                        + " (this reader knows " + SmaitFormat.VERSION_MAJOR + ")");
            }
            headerFlags = word & 0xFFFF;
            extended = true;
            addr64 = (headerFlags & SmaitFormat.FLAG_ADDR64) != 0;
            endPromised = (headerFlags & SmaitFormat.FLAG_END) != 0;
            wi = 1;
            nonRecordBytes = SmaitFormat.SIMPLE;
        }
    }

    /** Stream offset of the next word. */
    final long pos() {
        return base + ((long) wi << 3) + tailDone;
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

    /**
     * True if the header promises an end record ({@link SmaitFormat#FLAG_END}): reading to the end checks that the
     * file is complete. A file without (classic SMAIT, older extended files) cannot be verified complete by its
     * format.
     */
    public boolean endPromised() {
        return endPromised;
    }

    /** Codec the file was compressed with. */
    public Codec codec() {
        return codec;
    }

    /** Byte offset of the next record in the uncompressed stream (after the record read last). */
    public long position() {
        return pos();
    }

    /** Records returned so far (a call record counts once). */
    public long records() {
        return (pos() - nonRecordBytes) / SmaitFormat.SIMPLE;
    }

    // ---- bad records ----

    /** Reports a bad record of {@code n} simple records at the current position: throw, or skip and count. */
    final void bad(int n, String what) {
        if (!skipBad) {
            throw new TraceFormatException(name, pos(), what);
        }
        noteSkipped(what);
        int k = Math.min(Math.max(n, 1), avail - wi);
        wi += k;
        nonRecordBytes += (long) k << 3;
    }

    /** As {@link #bad}, at the end of the stream: also skips the trailing bytes. */
    final void badTail(int n, String what) {
        if (!skipBad) {
            throw new TraceFormatException(name, pos(), what);
        }
        noteSkipped(what);
        int left = tail - tailDone;
        wi += n;
        tailDone += left;
        nonRecordBytes += ((long) n << 3) + left;
    }

    /** What an unknown record tag {@code f1} is, for its message. */
    final String unknownTagMessage(int f1) {
        if (f1 == SmaitFormat.HEADER_MAGIC) {
            return "extended-format header in the middle of a file";
        }
        if ((f1 >>> 28) == 1 && !extended) {
            return String.format("unknown record tag %08x (an extension record in a headerless classic file)", f1);
        }
        return String.format("unknown record tag %08x", f1);
    }

    /** Counts a skipped record; the first one's position and reason are kept for {@link #firstSkipped()}. */
    final void noteSkipped(String what) {
        noteSkipped(pos(), what);
    }

    /** As {@link #noteSkipped(String)}, for a record at stream offset {@code at}. */
    final void noteSkipped(long at, String what) {
        if (skipped++ == 0) {
            firstSkipped = "byte offset " + at + ": " + what;
        }
    }

    /** Where the first skipped bad record was and what was wrong ("byte offset N: what"); null if none was. */
    public String firstSkipped() {
        return firstSkipped;
    }

    /**
     * The line telling a user that bad records of this file were skipped: "FILE: skipped N bad record(s), the first
     * at byte offset M: what"; null if none was.
     */
    public String skippedSummary() {
        return skipped == 0 ? null : name + ": skipped " + skipped + " bad record" + (skipped == 1 ? "" : "s")
                + ", the first at " + firstSkipped;
    }

    /** Bad records skipped so far (only with skipping on). */
    public long skipped() {
        return skipped;
    }
}
