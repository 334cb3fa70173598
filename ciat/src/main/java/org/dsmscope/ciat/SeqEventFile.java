package org.dsmscope.ciat;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.dsmscope.ciat.comm.CommEventSink;

/**
 * A partition's communication events in a partitioned analysis, spilled to a temporary file in access order so
 * that the partitions' events can be merged by access number into one event trace identical to a serial run's.
 * Private binary layout (never kept: deleted after the merge): per event the access number and clock (8 bytes
 * each, big-endian), the type (1 byte), the processor and the degree (4 bytes each).
 */
final class SeqEventFile implements CommEventSink {
    /** Access number of the access being analysed (set before each access). */
    long seq;
    private final Path path;
    private final DataOutputStream out;

    private SeqEventFile(Path path, DataOutputStream out) {
        this.path = path;
        this.out = out;
    }

    /**
     * A new temporary spill file in {@code dir} (beside the event trace it will become part of, so that a large run
     * does not fill a small {@code /tmp}), or in the system's temporary folder if {@code dir} is null.
     */
    static SeqEventFile create(Path dir) {
        try {
            Path p = dir == null ? Files.createTempFile("dsmscope-ciat-events", ".tmp")
                    : Files.createTempFile(dir, ".dsmscope-ciat-events", ".tmp");
            p.toFile().deleteOnExit();
            return new SeqEventFile(p, new DataOutputStream(new BufferedOutputStream(Files.newOutputStream(p),
                    1 << 16)));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create a temporary event file: " + e.getMessage(), e);
        }
    }

    @Override
    public void event(long clock, int type, int processor, int degree) {
        try {
            out.writeLong(seq);
            out.writeLong(clock);
            out.writeByte(type);
            out.writeInt(processor);
            out.writeInt(degree);
        } catch (IOException e) {
            throw new UncheckedIOException(path + ": cannot write: " + e.getMessage(), e);
        }
    }

    /** Closes the file for writing. */
    void close() {
        try {
            out.close();
        } catch (IOException e) {
            throw new UncheckedIOException(path + ": cannot write: " + e.getMessage(), e);
        }
    }

    /** Opens the file for reading with {@link #read}. */
    DataInputStream reader() throws IOException {
        return new DataInputStream(new BufferedInputStream(Files.newInputStream(path), 1 << 16));
    }

    /** Reads the next event into {seq, clock, type, processor, degree}; null at the end. */
    static long[] read(DataInputStream in, long[] into) throws IOException {
        long s;
        try {
            s = in.readLong();
        } catch (EOFException e) {
            return null;
        }
        into[0] = s;
        into[1] = in.readLong();
        into[2] = in.readByte();
        into[3] = in.readInt();
        into[4] = in.readInt();
        return into;
    }

    /** Deletes the file. */
    void delete() {
        try {
            Files.deleteIfExists(path);
        } catch (IOException e) {
            // a temporary file; deleteOnExit is the fallback
        }
    }
}
