package org.dsmscope.trace;

import java.io.IOException;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.LongBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.ReadableByteChannel;

/**
 * Where {@link TraceReader} gets its simple records from: whole 8-byte words of the uncompressed record stream,
 * each delivered as first field &lt;&lt; 32 | second field whatever the file's byte order, copied in bulk into the
 * reader's small {@code long[]}. Two forms: {@link Channel} reads a channel (compressed streams, pipes) into a
 * direct buffer; {@link Mapped} maps an uncompressed file in large windows and copies straight from the page
 * cache, which saves the kernel's copy into a read buffer. Bytes after the last whole word are only counted.
 */
abstract class WordSource implements AutoCloseable {
    /** True for big-endian words (the default until the reader has detected the order). */
    boolean big = true;

    /** Copies up to {@code max} whole words into {@code dst} from {@code off}; 0 only at the end of the stream. */
    abstract int read(long[] dst, int off, int max) throws IOException;

    /** At the end of the stream: bytes after the last whole word (0..7). */
    abstract int tail();

    /** Sets the byte order of the words read from now on. */
    void order(boolean isBig) {
        big = isBig;
    }

    /** Closes the underlying channel. */
    @Override
    public abstract void close() throws IOException;

    /** Turns words read big-endian into words read little-endian (each 32-bit field byte-swapped). */
    static void toLittle(long[] w, int from, int to) {
        for (int i = from; i < to; i++) {
            w[i] = Long.rotateLeft(Long.reverseBytes(w[i]), 32);
        }
    }

    /** Copies {@code n} longs of {@code view} at {@code index} to {@code dst}, first field high. */
    final void copy(LongBuffer view, int index, long[] dst, int off, int n) {
        view.get(index, dst, off, n);
        if (!big) {
            // the view is little-endian: swap the two fields into place
            for (int i = off, end = off + n; i < end; i++) {
                dst[i] = Long.rotateLeft(dst[i], 32);
            }
        }
    }

    /** Reads a channel through a direct buffer. */
    static final class Channel extends WordSource {
        private final ReadableByteChannel in;
        private final ByteBuffer buf;
        private final LongBuffer beView;
        private final LongBuffer leView;
        /** Byte index of the next word in {@link #buf} (always a multiple of 8); buf.position() = bytes held. */
        private int rpos;
        private boolean eof;

        Channel(ReadableByteChannel in, int bytes, byte[] head, int n) {
            this.in = in;
            this.buf = ByteBuffer.allocateDirect(Math.max(16, bytes));
            buf.put(head, 0, n);
            beView = buf.duplicate().clear().order(ByteOrder.BIG_ENDIAN).asLongBuffer();
            leView = buf.duplicate().clear().order(ByteOrder.LITTLE_ENDIAN).asLongBuffer();
        }

        @Override
        int read(long[] dst, int off, int max) throws IOException {
            for (;;) {
                int have = (buf.position() - rpos) >>> 3;
                if (have > 0) {
                    int n = Math.min(have, max);
                    copy(big ? beView : leView, rpos >>> 3, dst, off, n);
                    rpos += n << 3;
                    return n;
                }
                if (eof) {
                    return 0;
                }
                // keep the bytes of an incomplete word, then read until a whole word is there: one read takes
                // what the channel has (a file fills the buffer), and a live stream is not waited on for more
                buf.limit(buf.position()).position(rpos);
                buf.compact();
                rpos = 0;
                while (buf.hasRemaining()) {
                    if (in.read(buf) < 0) {
                        eof = true;
                        break;
                    }
                    if (buf.position() >= SmaitFormat.SIMPLE) {
                        break;
                    }
                }
            }
        }

        @Override
        int tail() {
            return buf.position() - rpos;
        }

        @Override
        public void close() throws IOException {
            in.close();
        }
    }

    /** Words handed over in process ({@link WordChannel}), first field high already: copied as they come. */
    static final class Words extends WordSource {
        private final WordChannel in;

        Words(WordChannel in) {
            this.in = in;
        }

        @Override
        int read(long[] dst, int off, int max) throws IOException {
            return Math.max(0, in.read(dst, off, max));
        }

        @Override
        int tail() {
            return 0;
        }

        @Override
        public void close() throws IOException {
            in.close();
        }
    }

    /** Maps an uncompressed file window by window (read-only) and copies words from the mapping. */
    static final class Mapped extends WordSource {
        private final FileChannel ch;
        private final long window;
        /** File position where the words end (the file's size, or the end of a range: {@link TraceReader#openAt}). */
        private final long end;
        private MappedByteBuffer map;
        private LongBuffer view;
        /** File position of the mapped window. */
        private long mapStart;
        /** Words in the window, and the next one to copy. */
        private int wlen;
        private int wpos;
        private int tail;

        /** Maps {@code ch} from {@code start} on in windows of {@code window} bytes (a multiple of 8). */
        Mapped(FileChannel ch, long start, long window) {
            this(ch, start, window, Long.MAX_VALUE);
        }

        /** Maps {@code ch} from {@code start} up to {@code end} (or the file's end, if sooner). */
        Mapped(FileChannel ch, long start, long window, long end) {
            this.ch = ch;
            this.window = window;
            this.mapStart = start;
            this.end = end;
        }

        @Override
        int read(long[] dst, int off, int max) throws IOException {
            if (wpos == wlen && !nextWindow()) {
                return 0;
            }
            int n = Math.min(max, wlen - wpos);
            if (ch.size() < mapStart + ((long) (wpos + n) << 3)) {
                // touching mapped pages beyond the end of the file would fault (an InternalError, not an IOException)
                throw new IOException("the file shrank while being read");
            }
            copy(view, wpos, dst, off, n);
            wpos += n;
            return n;
        }

        private boolean nextWindow() throws IOException {
            long next = mapStart + ((long) wlen << 3);
            unmap();
            mapStart = next;
            wlen = 0;
            wpos = 0;
            long left = Math.min(ch.size(), end) - next;
            if (left < 8) {
                tail = (int) Math.max(0, left);
                return false;
            }
            long bytes = Math.min(window, left & ~7L);
            map = ch.map(FileChannel.MapMode.READ_ONLY, next, bytes);
            view = map.order(big ? ByteOrder.BIG_ENDIAN : ByteOrder.LITTLE_ENDIAN).asLongBuffer();
            wlen = (int) (bytes >>> 3);
            return true;
        }

        @Override
        int tail() {
            return tail;
        }

        @Override
        void order(boolean isBig) {
            big = isBig;
            if (map != null) {
                view = map.order(big ? ByteOrder.BIG_ENDIAN : ByteOrder.LITTLE_ENDIAN).asLongBuffer();
            }
        }

        private void unmap() {
            if (map != null) {
                Unmapper.unmap(map);
                map = null;
                view = null;
            }
        }

        @Override
        public void close() throws IOException {
            unmap();
            ch.close();
        }
    }

    /**
     * Releases a mapping at once (through {@code sun.misc.Unsafe.invokeCleaner}, module jdk.unsupported) instead
     * of at some later garbage collection, so that reading a long file does not pile up mappings; when that is not
     * available the collector releases them. The reader never touches a window after releasing it.
     */
    static final class Unmapper {
        private static final Object UNSAFE;
        private static final Method CLEAN;

        static {
            Object u = null;
            Method m = null;
            try {
                Class<?> c = Class.forName("sun.misc.Unsafe");
                Field f = c.getDeclaredField("theUnsafe");
                f.setAccessible(true);
                u = f.get(null);
                m = c.getMethod("invokeCleaner", ByteBuffer.class);
            } catch (ReflectiveOperationException | RuntimeException e) {
                u = null;
                m = null;
            }
            UNSAFE = u;
            CLEAN = m;
        }

        private Unmapper() {
        }

        static void unmap(MappedByteBuffer b) {
            if (CLEAN != null) {
                try {
                    CLEAN.invoke(UNSAFE, b);
                } catch (ReflectiveOperationException | RuntimeException e) {
                    // left to the garbage collector
                }
            }
        }
    }

    /** The bytes of {@code ch} from its position on, {@code bytes} of them at most. */
    static ReadableByteChannel range(FileChannel ch, long bytes) {
        return new ReadableByteChannel() {
            private long left = bytes;

            @Override
            public int read(ByteBuffer dst) throws IOException {
                if (left <= 0) {
                    return -1;
                }
                ByteBuffer d = dst;
                if (dst.remaining() > left) {
                    d = dst.duplicate();
                    d.limit(d.position() + (int) left);
                }
                int n = ch.read(d);
                if (n > 0) {
                    left -= n;
                    if (d != dst) {
                        dst.position(d.position());
                    }
                }
                return n;
            }

            @Override
            public boolean isOpen() {
                return ch.isOpen();
            }

            @Override
            public void close() throws IOException {
                ch.close();
            }
        };
    }

    /** A channel that first returns a few already-read bytes, then the rest of another channel. */
    static final class PrefixChannel implements ReadableByteChannel {
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
