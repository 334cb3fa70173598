package org.dsmscope.explain;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** Hand-written fault traces for the tests: the header and the records, one string a line. */
final class Traces {
    private Traces() {
    }

    /** Writes "dsmscope-faults 1", the unit line, the processors line and {@code records} to a temporary file. */
    static Path write(Path dir, String unit, int processors, String... records) {
        StringBuilder sb = new StringBuilder("dsmscope-faults 1\nunit ").append(unit).append("\nprocessors ")
                .append(processors).append('\n');
        for (String r : records) {
            sb.append(r).append('\n');
        }
        try {
            Path f = Files.createTempFile(dir, "trace", ".faults");
            Files.writeString(f, sb);
            return f;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Reads a page-granularity trace of {@code processors} processors made of {@code records}. */
    static FaultTrace pages(Path dir, int processors, String... records) {
        try {
            return FaultFormat.read(write(dir, "page 4096", processors, records));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
