package org.dsmscope.trace;

import java.io.FileOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.FileChannel;
import java.nio.channels.WritableByteChannel;
import java.nio.file.Path;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Many output files written through a bounded number of open file descriptors: one trace file per thread, for
 * programs with more threads alive at once than the process may open files (the agent's per-thread traces, the
 * Lackey importer's per-thread files). Each {@link File} is created (truncated) at once, so that an unwritable
 * destination fails at the start; it is opened for appending when it is written to, and the least recently
 * written open files are closed when more than {@link #limit()} would be open. The bytes are exactly those a plain
 * channel would have written (each file is only ever appended to). Thread-safe: a file may be written by one
 * thread while another thread's write closes it to make room (a file being written is never closed; if every
 * open file is being written, the limit is exceeded for the moment rather than waiting).
 */
public final class OpenFiles {
    /**
     * The policy for a file per thread: the first this many files get a writer's full buffer, later ones {@link
     * #SMALL_BUFFER_BYTES}, so that thousands of threads' writers fit in the JVM's direct memory.
     */
    public static final int FULL_BUFFER_FILES = 64;
    /** Write buffer for files after the first {@link #FULL_BUFFER_FILES} (16 KiB). */
    public static final int SMALL_BUFFER_BYTES = 16 << 10;

    private final int limit;
    /** The open files, least recently written first. Guarded by {@code this}. */
    private final LinkedHashMap<File, Boolean> open = new LinkedHashMap<>(16, 0.75f, true);
    private long opens;

    /** A pool keeping at most {@code limit} (at least 1) files open. */
    public OpenFiles(int limit) {
        this.limit = Math.max(1, limit);
    }

    /**
     * A pool sized for this process: half the file descriptors it may still open (the rest stay for the program
     * and the JVM), at least 8 and at most 1024.
     */
    public static OpenFiles forThisProcess() {
        return new OpenFiles(processLimit());
    }

    /**
     * Half of the file descriptors this process may still open, within 8..1024: from {@code /proc/self/limits}
     * and {@code /proc/self/fd} on Linux (cheap enough for the agent's start-up, unlike the management beans);
     * 512 where they cannot be read.
     */
    public static int processLimit() {
        // java.io only: no stream or lambda classes to load during the agent's start-up
        try (java.io.BufferedReader r = new java.io.BufferedReader(new java.io.FileReader("/proc/self/limits",
                java.nio.charset.StandardCharsets.US_ASCII))) {
            long max = -1;
            for (String line = r.readLine(); line != null; line = r.readLine()) {
                if (line.startsWith("Max open files")) {
                    String f = line.substring("Max open files".length()).trim();
                    int sp = f.indexOf(' ');
                    f = sp < 0 ? f : f.substring(0, sp);
                    max = f.equals("unlimited") ? Integer.MAX_VALUE : Long.parseLong(f);
                }
            }
            String[] fds = new java.io.File("/proc/self/fd").list();
            if (max < 0 || fds == null) {
                return 512;
            }
            return (int) Math.max(8, Math.min(1024, (max - fds.length) / 2));
        } catch (IOException | RuntimeException e) {
            return 512;
        }
    }

    /** Most files kept open at once. */
    public int limit() {
        return limit;
    }

    /** Times a file was opened for writing (a file closed to make room and written again counts again). */
    public synchronized long opens() {
        return opens;
    }

    /** Files open now. */
    public synchronized int openCount() {
        return open.size();
    }

    /** Creates (or truncates) {@code file}, closed until it is written to. */
    public File create(Path file) throws IOException {
        // a stream, not FileChannel.open: the agent's start-up then loads no channel classes for level 1 files
        try {
            new FileOutputStream(file.toFile()).close();
        } catch (java.io.FileNotFoundException e) {
            // the same failure through NIO, for its precise exception (no such file, access denied, not a directory)
            java.nio.file.Files.newOutputStream(file).close();
            throw e;
        }
        return new File(file);
    }

    /** Registers {@code f} as open and most recent, closing the least recently written idle files over the limit. */
    private synchronized void opened(File f) {
        opens++;
        open.put(f, Boolean.TRUE);
        Iterator<File> it = open.keySet().iterator();
        while (open.size() > limit && it.hasNext()) {
            File v = it.next();
            if (v != f && v.lock.tryLock()) {
                try {
                    v.closeChannel();
                } finally {
                    v.lock.unlock();
                }
                it.remove();
            }
        }
    }

    private synchronized void touched(File f) {
        open.get(f);
    }

    private synchronized void closed(File f) {
        open.remove(f);
    }

    /** One file of the pool: a channel that appends to it. */
    public final class File implements WritableByteChannel {
        private final Path path;
        private final ReentrantLock lock = new ReentrantLock();
        /** Open for appending while the pool keeps the file open, else null; {@link #ch} its channel once needed. */
        private FileOutputStream out;
        private FileChannel ch;
        private boolean closed;

        private File(Path path) {
            this.path = path;
        }

        /** The file. */
        public Path path() {
            return path;
        }

        @Override
        public int write(ByteBuffer src) throws IOException {
            lock.lock();
            try {
                ready();
                if (ch == null) {
                    ch = out.getChannel();
                }
                int n = 0;
                while (src.hasRemaining()) {
                    n += ch.write(src);
                }
                return n;
            } finally {
                lock.unlock();
            }
        }

        /**
         * Appends {@code len} bytes of {@code b} from {@code off} (through the stream, so that a heap array is
         * written without the per-thread temporary direct buffer a channel write of a heap buffer would keep).
         */
        public void write(byte[] b, int off, int len) throws IOException {
            lock.lock();
            try {
                ready();
                out.write(b, off, len);
            } finally {
                lock.unlock();
            }
        }

        /** This file as an output stream (its close closes the file). */
        public OutputStream outputStream() {
            return new OutputStream() {
                @Override
                public void write(int b) throws IOException {
                    File.this.write(new byte[] {(byte) b}, 0, 1);
                }

                @Override
                public void write(byte[] b, int off, int len) throws IOException {
                    File.this.write(b, off, len);
                }

                @Override
                public void close() throws IOException {
                    File.this.close();
                }
            };
        }

        /** Opens the file for appending if the pool closed it (held: {@link #lock}). */
        private void ready() throws IOException {
            if (closed) {
                throw new ClosedChannelException();
            }
            if (out == null) {
                out = new FileOutputStream(path.toFile(), true);
                opened(this);
            } else {
                touched(this);
            }
        }

        /** Closes the descriptor (the pool's side; the file stays writable). Called holding {@link #lock}. */
        private void closeChannel() {
            if (out != null) {
                try {
                    out.close();
                } catch (IOException e) {
                    // appends are complete when write returns; a failing close loses nothing written
                }
                out = null;
                ch = null;
            }
        }

        @Override
        public boolean isOpen() {
            lock.lock();
            try {
                return !closed;
            } finally {
                lock.unlock();
            }
        }

        @Override
        public void close() throws IOException {
            lock.lock();
            try {
                if (closed) {
                    return;
                }
                closed = true;
                FileOutputStream o = out;
                out = null;
                ch = null;
                if (o != null) {
                    closed(this);
                    o.close();
                }
            } finally {
                lock.unlock();
            }
        }
    }
}
