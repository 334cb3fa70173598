package org.dsmscope.trace;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.ReadableByteChannel;
import java.nio.file.AccessDeniedException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * Opening trace files for {@link TraceReader#open(Path, TraceReader.Options)}: a regular file as a
 * {@link FileChannel} (mapped or read through the buffer, see {@link WordSource}), a pipe or FIFO as a plain stream
 * read once, and the one-line refusal of what cannot be read.
 */
final class TraceFiles {
    private TraceFiles() {
    }

    /**
     * Opens a file. Missing or unreadable files, directories and devices give a {@link BadInputException}; a pipe
     * or FIFO is read as a stream (once).
     */
    static TraceReader open(Path file, TraceReader.Options o) throws IOException {
        if (InputFile.check(file, null, "trace file", true) == InputFile.Kind.PIPE) {
            ReadableByteChannel in = streamed(FileChannel.open(file, StandardOpenOption.READ));
            try {
                return new TraceReader(in, file.toString(), o);
            } catch (IOException | RuntimeException e) {
                in.close();
                throw e;
            }
        }
        FileChannel ch = channel(file);
        try {
            return new TraceReader(ch, file.toString(), o);
        } catch (IOException | RuntimeException e) {
            ch.close();
            throw e;
        }
    }

    /** A regular trace file opened for reading; missing or unreadable: a {@link BadInputException}. */
    static FileChannel channel(Path file) throws IOException {
        try {
            return FileChannel.open(file, StandardOpenOption.READ);
        } catch (NoSuchFileException e) {
            throw new BadInputException(file + ": no such trace file");
        } catch (AccessDeniedException e) {
            throw new BadInputException(file + ": trace file is not readable (permission denied)");
        }
    }

    /** {@code ch} as a plain channel: read as a stream, never mapped or positioned (a pipe cannot seek). */
    private static ReadableByteChannel streamed(FileChannel ch) {
        return new ReadableByteChannel() {
            @Override
            public int read(ByteBuffer dst) throws IOException {
                return ch.read(dst);
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
}
