package org.dsmscope.trace.memory;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import org.dsmscope.trace.BadInputException;

/**
 * The memory usage file (seed 000 §4.5; format {@value #FORMAT}): CIAT writes it, CDAT's page policies (RR2,
 * Oracle) read it, so its format lives here (SPEC §1). Text, one header block then one record per touched page:
 *
 * <pre>
 * # dsmscope-memory 1
 * # page_size 4096
 * # fields: page touched_bytes code_bytes shared_bytes data_accesses code_accesses shared_data_accesses shared_code_accesses owner
 * 61952 32 0 32 7954 0 7954 0 -1
 * </pre>
 *
 * Fields are decimal integers separated by single spaces; {@code page} is the address divided by the page size;
 * {@code owner} is the only thread that touched a private page, -1 for a shared page.
 */
public final class MemoryUsageFile {
    /** Format name and version on the first line. */
    public static final String FORMAT = "dsmscope-memory 1";
    /** The field names, in record order. */
    public static final String FIELDS = "page touched_bytes code_bytes shared_bytes data_accesses code_accesses"
            + " shared_data_accesses shared_code_accesses owner";
    /** Number of fields in a record. */
    public static final int FIELD_COUNT = 9;

    /** One page's record; a reader reuses one instance, never keep a reference. */
    public static final class Page {
        /** Page number (address / page size). */
        public long page;
        /** Touched bytes of the page. */
        public long touchedBytes;
        /** Touched code bytes. */
        public long codeBytes;
        /** Bytes touched by more than one thread. */
        public long sharedBytes;
        /** Data accesses to the page. */
        public long dataAccesses;
        /** Code accesses (instruction fetches). */
        public long codeAccesses;
        /** Data accesses to shared locations. */
        public long sharedDataAccesses;
        /** Code accesses to shared locations. */
        public long sharedCodeAccesses;
        /** The thread that alone touched the page, or -1 if shared. */
        public int owner;

        /** True if more than one thread touched the page. */
        public boolean shared() {
            return owner < 0;
        }
    }

    /** Receives each page of a file. */
    @FunctionalInterface
    public interface PageConsumer {
        /** Called once per record, in file order. */
        void page(Page p);
    }

    private MemoryUsageFile() {
    }

    /** Writes the header for {@code pageSize}-byte pages. */
    public static void writeHeader(Writer out, int pageSize) throws IOException {
        out.write("# " + FORMAT + "\n# page_size " + pageSize + "\n# fields: " + FIELDS + "\n");
    }

    /** Writes one record. */
    public static void writeRecord(Writer out, Page p) throws IOException {
        out.write(p.page + " " + p.touchedBytes + " " + p.codeBytes + " " + p.sharedBytes + " " + p.dataAccesses
                + " " + p.codeAccesses + " " + p.sharedDataAccesses + " " + p.sharedCodeAccesses + " " + p.owner
                + "\n");
    }

    /**
     * Streams the pages of {@code file} to {@code consumer}; returns the page size. Bad input gives a
     * {@link BadInputException} naming the file, the line and what is wrong.
     */
    public static int read(Path file, PageConsumer consumer) throws IOException {
        return read(file, size -> { }, consumer);
    }

    /**
     * As {@link #read(Path, PageConsumer)}, telling {@code pageSizeSeen} the page size when the header gives it,
     * before the first page.
     */
    public static int read(Path file, java.util.function.IntConsumer pageSizeSeen, PageConsumer consumer)
            throws IOException {
        BufferedReader in;
        org.dsmscope.trace.InputFile.check(file, null, "memory usage file", true);
        try {
            in = Files.newBufferedReader(file, StandardCharsets.UTF_8);
        } catch (NoSuchFileException e) {
            throw new BadInputException(file + ": no such memory usage file");
        }
        try (in) {
            String first = in.readLine();
            if (first == null) {
                throw bad(file, 1, "empty file; expected the header line '# " + FORMAT + "'");
            }
            if (!first.equals("# " + FORMAT)) {
                throw bad(file, 1, "not a memory usage file of format " + FORMAT + " (first line '"
                        + shorten(first) + "')");
            }
            int pageSize = -1;
            Page p = new Page();
            long[] v = new long[FIELD_COUNT];
            String line;
            int n = 1;
            long previous = Long.MIN_VALUE;
            while ((line = in.readLine()) != null) {
                n++;
                if (line.startsWith("#")) {
                    if (line.startsWith("# page_size ")) {
                        pageSize = parsePageSize(file, n, line.substring("# page_size ".length()));
                        pageSizeSeen.accept(pageSize);
                    } else if (line.startsWith("# fields: ") && !line.equals("# fields: " + FIELDS)) {
                        throw bad(file, n, "unexpected field list '" + shorten(line) + "'");
                    }
                    continue;
                }
                if (pageSize < 0) {
                    throw bad(file, n, "record before the '# page_size N' header line");
                }
                parseRecord(file, n, line, v);
                if (v[0] <= previous) {
                    throw bad(file, n, "page " + v[0] + " is not after page " + previous
                            + " (records are in increasing page order)");
                }
                previous = v[0];
                p.page = v[0];
                p.touchedBytes = v[1];
                p.codeBytes = v[2];
                p.sharedBytes = v[3];
                p.dataAccesses = v[4];
                p.codeAccesses = v[5];
                p.sharedDataAccesses = v[6];
                p.sharedCodeAccesses = v[7];
                p.owner = (int) v[8];
                if (p.touchedBytes > pageSize || p.codeBytes > p.touchedBytes || p.sharedBytes > p.touchedBytes) {
                    throw bad(file, n, "byte counts exceed the page (touched " + p.touchedBytes + ", code "
                            + p.codeBytes + ", shared " + p.sharedBytes + ", page size " + pageSize + ")");
                }
                consumer.page(p);
            }
            if (pageSize < 0) {
                throw bad(file, n, "no '# page_size N' header line");
            }
            return pageSize;
        }
    }

    private static int parsePageSize(Path file, int line, String text) {
        try {
            int size = Integer.parseInt(text.trim());
            if (size < 1 || Integer.bitCount(size) != 1) {
                throw bad(file, line, "page size " + size + " is not a power of two");
            }
            return size;
        } catch (NumberFormatException e) {
            throw bad(file, line, "page size '" + shorten(text) + "' is not a number");
        }
    }

    private static void parseRecord(Path file, int line, String text, long[] v) {
        String[] parts = text.trim().split(" +");
        if (parts.length != FIELD_COUNT) {
            throw bad(file, line, "expected " + FIELD_COUNT + " fields (" + FIELDS + "), found " + parts.length);
        }
        for (int i = 0; i < FIELD_COUNT; i++) {
            try {
                v[i] = Long.parseLong(parts[i]);
            } catch (NumberFormatException e) {
                throw bad(file, line, "field " + (i + 1) + " '" + shorten(parts[i]) + "' is not an integer");
            }
            if (v[i] < 0 && i != FIELD_COUNT - 1) {
                throw bad(file, line, "field " + (i + 1) + " is negative");
            }
        }
        if (v[8] < -1 || v[8] > Integer.MAX_VALUE) {
            throw bad(file, line, "owner " + v[8] + " is neither -1 nor a thread number");
        }
    }

    private static BadInputException bad(Path file, int line, String what) {
        return new BadInputException(file + ": line " + line + ": " + what);
    }

    private static String shorten(String s) {
        return s.length() <= 60 ? s : s.substring(0, 57) + "...";
    }
}
