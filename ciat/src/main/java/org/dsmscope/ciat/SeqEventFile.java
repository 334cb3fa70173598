package org.dsmscope.ciat;

import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.dsmscope.ciat.comm.CommEventSink;

/**
 * A partition's communication events in a partitioned replay, spilled to a temporary file as lines
 * {@code seq clock TYPE processor degree} in access order, so that the partitions' events can be merged by access
 * number into one event trace identical to a serial run's. Deleted after the merge.
 */
final class SeqEventFile implements CommEventSink {
    private static final String[] TYPES = {"RAW", "WAR", "WAW", "RAR"};
    /** Access number of the access being analysed (set before each access). */
    long seq;
    private final Path path;
    private final Writer out;
    private final StringBuilder sb = new StringBuilder(64);

    private SeqEventFile(Path path, Writer out) {
        this.path = path;
        this.out = out;
    }

    /** A new temporary spill file. */
    static SeqEventFile create() {
        try {
            Path p = Files.createTempFile("dsmscope-ciat-events", ".tmp");
            p.toFile().deleteOnExit();
            return new SeqEventFile(p, new BufferedWriter(Files.newBufferedWriter(p, StandardCharsets.US_ASCII),
                    1 << 16));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create a temporary event file: " + e.getMessage(), e);
        }
    }

    @Override
    public void event(long clock, int type, int processor, int degree) {
        sb.setLength(0);
        sb.append(seq).append(' ').append(clock).append(' ').append(TYPES[type]).append(' ').append(processor)
                .append(' ').append(degree).append('\n');
        try {
            out.append(sb);
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

    /** Opens the file for reading. */
    BufferedReader reader() throws IOException {
        return Files.newBufferedReader(path, StandardCharsets.US_ASCII);
    }

    /** Deletes the file. */
    void delete() {
        try {
            Files.deleteIfExists(path);
        } catch (IOException e) {
            // a temporary file; deleteOnExit is the fallback
        }
    }

    /** The type name of an event type. */
    static String typeName(int type) {
        return TYPES[type];
    }
}
