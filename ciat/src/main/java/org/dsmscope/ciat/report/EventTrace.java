package org.dsmscope.ciat.report;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.dsmscope.ciat.comm.CommEventSink;
import org.dsmscope.trace.OutputFile;

/**
 * The CIAT event trace ({@code -ciat_events}, seed 000 §4.4, SPEC §5), format {@value #FORMAT}: a header line
 * {@code # dsmscope-ciat-events 1}, a line naming the fields, then one line per communication event
 * {@code clock type processor degree}, type one of RAW WAR WAW RAR, degree the invalidation degree for WAR, 1 for
 * WAW and 0 (undefined in the seed) for RAW and RAR. Written as events happen, in replay order, to
 * {@code FILE.partial}, renamed to {@code FILE} when closed complete ({@link OutputFile}).
 */
public final class EventTrace implements CommEventSink, AutoCloseable {
    /** Format name and version. */
    public static final String FORMAT = "dsmscope-ciat-events 1";
    private static final String[] TYPES = {"RAW", "WAR", "WAW", "RAR"};
    private final Path path;
    private final Writer out;
    private final StringBuilder sb = new StringBuilder(64);

    private EventTrace(Path path, Writer out) {
        this.path = path;
        this.out = out;
    }

    /** Opens {@code path} and writes the header. */
    public static EventTrace open(Path path) {
        try {
            Writer w = new BufferedWriter(Files.newBufferedWriter(OutputFile.partial(path), StandardCharsets.US_ASCII),
                    1 << 16);
            EventTrace t = new EventTrace(path, w);
            w.write("# " + FORMAT + "\n# fields: clock type processor degree\n");
            return t;
        } catch (IOException e) {
            throw new UncheckedIOException(path + ": cannot write: " + e.getMessage(), e);
        }
    }

    /** An event trace writing to {@code out} (tests). */
    public static EventTrace to(Writer out) {
        EventTrace t = new EventTrace(null, out);
        try {
            out.write("# " + FORMAT + "\n# fields: clock type processor degree\n");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return t;
    }

    @Override
    public void event(long clock, int type, int processor, int degree) {
        sb.setLength(0);
        sb.append(clock).append(' ').append(TYPES[type]).append(' ').append(processor).append(' ').append(degree)
                .append('\n');
        try {
            out.append(sb);
        } catch (IOException e) {
            throw new UncheckedIOException(path + ": cannot write: " + e.getMessage(), e);
        }
    }

    /** Closes the trace; a file trace is renamed from its partial name to its own only now, complete. */
    @Override
    public void close() {
        try {
            out.close();
        } catch (IOException e) {
            if (path != null) {
                OutputFile.discard(OutputFile.partial(path));
            }
            throw new UncheckedIOException(path + ": cannot write: " + e.getMessage(), e);
        }
        if (path != null) {
            OutputFile.commit(OutputFile.partial(path), path);
        }
    }

    /** Closes the trace of a failed run and deletes its partial file. */
    public void abandon() {
        try {
            out.close();
        } catch (IOException e) {
            // the run failed already; that failure is reported
        }
        if (path != null) {
            OutputFile.discard(OutputFile.partial(path));
        }
    }
}
