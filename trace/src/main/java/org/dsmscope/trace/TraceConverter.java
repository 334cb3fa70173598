package org.dsmscope.trace;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Copies a trace set record for record into another trace type (normal, compressed), byte order or format variant
 * (classic, extended): {@code dsmscope convert}. Records are copied exactly ({@link TraceWriter#copy}); only
 * address-high records are regenerated where the new file needs them.
 */
public final class TraceConverter {
    /** Output format variant. */
    public enum Variant {
        /** Extended if the input file is extended, classic otherwise. */
        SAME,
        /** Classic SMAIT (fails clearly on a record classic SMAIT cannot hold). */
        CLASSIC,
        /** Extended format with 64-bit addresses allowed. */
        EXTENDED
    }

    /** Counts of one conversion. */
    public static final class Result {
        /** Files written, in thread order. */
        public final List<Path> files = new ArrayList<>();
        /** Records copied. */
        public long records;
        /** Bad records skipped (with skipping on). */
        public long skipped;
    }

    private TraceConverter() {
    }

    /** The output trace-set prefix for {@code out}: {@code out} itself if it already ends in {@code .p}. */
    public static String outputPrefix(String out, int p) {
        return out.endsWith("." + p) ? out : out + "." + p;
    }

    /**
     * Converts every file of {@code in} into {@code outPrefix.t} (see {@link #outputPrefix}).
     *
     * @param base writer options (order, codec); the format variant is set per file from {@code variant}
     */
    public static Result convert(TraceSet in, String outPrefix, TraceWriter.Options base, Variant variant,
            TraceReader.Options readOptions) throws IOException {
        Result res = new Result();
        int p = in.size();
        for (int t = 0; t < p; t++) {
            Path src = in.files().get(t);
            Path dst = Path.of(outPrefix + "." + t);
            if (Files.exists(dst) && Files.isSameFile(src, dst)) {
                throw new BadInputException(dst + ": output would overwrite its own input; choose another -o name");
            }
            try (TraceReader r = TraceReader.open(src, readOptions)) {
                boolean ext = variant == Variant.EXTENDED || (variant == Variant.SAME && r.extended());
                TraceWriter.Options o = new TraceWriter.Options().order(base.order).codec(base.codec).background(base.background)
                        .extended(ext).addr64(ext && (variant == Variant.EXTENDED || r.addr64()));
                Path tmp = dst.resolveSibling(dst.getFileName() + ".tmp");
                boolean ok = false;
                try (TraceWriter w = new TraceWriter(java.nio.channels.FileChannel.open(tmp,
                        java.nio.file.StandardOpenOption.CREATE, java.nio.file.StandardOpenOption.WRITE,
                        java.nio.file.StandardOpenOption.TRUNCATE_EXISTING), dst.toString(), o)) {
                    // Runs of memory, branch and fetch records go over in bulk when the writer can take fetch
                    // records (an extended writer, or a classic source that has none); the rest record by record.
                    boolean bulk = w.extended() || !r.extended();
                    for (;;) {
                        int n = bulk ? r.nextRun(RUN) : 0;
                        if (n > 0) {
                            try {
                                w.words(r.runWords(), r.runStart(), n, r.addressHigh());
                            } catch (BadInputException e) {
                                // refused at its first word (the high word is the run's): name that word's offset
                                long first = r.offset() - (long) (n - 1) * SmaitFormat.SIMPLE;
                                throw new BadInputException(src + ": byte offset " + first + ": " + e.getMessage());
                            }
                            res.records += n;
                            continue;
                        }
                        if (r.next() == RecordKind.EOF) {
                            break;
                        }
                        try {
                            w.copy(r);
                        } catch (BadInputException e) {
                            throw new BadInputException(src + ": byte offset " + r.offset() + ": " + e.getMessage());
                        }
                        res.records++;
                    }
                    ok = true;
                } finally {
                    if (!ok) {
                        Files.deleteIfExists(tmp);
                    }
                }
                Files.move(tmp, dst, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
                res.skipped += r.skipped();
            }
            res.files.add(dst);
        }
        return res;
    }

    /** Records per run taken from the reader at most. */
    private static final int RUN = 1024;
}
