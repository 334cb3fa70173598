package org.dsmscope.trace;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Copies a trace set record for record into another trace type (normal, compressed), byte order or format variant
 * (classic, extended): {@code dsmscope convert}. Records are copied exactly ({@link TraceWriter#copy}); only
 * address-high records are regenerated where the new file needs them.
 */
public final class TraceConverter {
    /** Output format variant. */
    public enum Variant {
        /**
         * The input file's address width (64-bit addresses allowed if they were), in the extended format with an
         * end record, so that the copy is checkable for completeness ({@link SmaitFormat#FLAG_END}).
         */
        SAME,
        /**
         * Classic SMAIT (fails clearly on a record classic SMAIT cannot hold); headerless, so without an end record:
         * readers cannot verify it complete.
         */
        CLASSIC,
        /** Extended format with 64-bit addresses allowed, and an end record. */
        EXTENDED
    }

    /** Counts of one conversion. */
    public static final class Result {
        /** Files written, in thread order. */
        public final List<Path> files = new ArrayList<>();
        /** Records copied (so far, while {@link #convert} runs: another thread may read it for a progress display). */
        public long records;
        /** Bad records skipped (with skipping on). */
        public long skipped;
        /** Per file with skipped records: {@link TraceReader#skippedSummary()} (count, first position, reason). */
        public final List<String> skippedFiles = new ArrayList<>();
        /** Input files without an end record ({@link TraceReader#endPromised()}): their copies hold what they held. */
        public final List<Path> unverified = new ArrayList<>();
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
        return convert(in, outPrefix, base, variant, readOptions, new Result());
    }

    /** {@link #convert} counting into {@code res}, which the caller may watch while it runs. */
    public static Result convert(TraceSet in, String outPrefix, TraceWriter.Options base, Variant variant,
            TraceReader.Options readOptions, Result res) throws IOException {
        int p = in.size();
        Map<Path, Integer> inputs = new HashMap<>();
        for (int u = 0; u < p; u++) {
            if (Files.isRegularFile(in.files().get(u))) {
                inputs.put(in.files().get(u).toRealPath(), u); // a pipe is no file an output could replace
            }
        }
        List<Path> dsts = new ArrayList<>();
        for (int t = 0; t < p; t++) {
            Path dst = Path.of(outPrefix + "." + t);
            Integer u = Files.exists(dst) ? inputs.get(dst.toRealPath()) : null;
            if (u != null) {
                throw new BadInputException(dst + ": output would overwrite " + (u == t ? "its own input"
                        : "input file " + u) + "; choose another -o name");
            }
            if (Files.isDirectory(dst)) {
                throw new BadInputException(dst + ": is a directory; choose another -o name");
            }
            dsts.add(dst);
        }
        Path parent = dsts.get(0).toAbsolutePath().getParent();
        if (parent != null && !Files.isDirectory(parent)) {
            throw new BadInputException(dsts.get(0) + ": cannot write: " + parent
                    + (Files.exists(parent) ? " is not a directory" : " does not exist"));
        }
        // Every file goes to a temporary sibling first; the set is renamed into place only when every file
        // converted, so a failure leaves no partial trace set (and no output overwrites an input still unread).
        List<Path> tmps = new ArrayList<>();
        boolean ok = false;
        try {
            for (int t = 0; t < p; t++) {
                Path dst = dsts.get(t);
                Path tmp = dst.resolveSibling(dst.getFileName() + ".tmp");
                tmps.add(tmp);
                convertFile(in.files().get(t), tmp, dst, base, variant, readOptions, res);
                res.files.add(dst);
            }
            for (int t = 0; t < p; t++) {
                Files.move(tmps.get(t), dsts.get(t), java.nio.file.StandardCopyOption.REPLACE_EXISTING);
            }
            ok = true;
        } finally {
            if (!ok) {
                for (Path tmp : tmps) {
                    try {
                        Files.deleteIfExists(tmp);
                    } catch (IOException e) {
                        // best effort: the original failure is the one to report
                    }
                }
            }
        }
        return res;
    }

    /** Converts one file {@code src} into {@code tmp} (named {@code dst} in messages), adding to {@code res}. */
    private static void convertFile(Path src, Path tmp, Path dst, TraceWriter.Options base, Variant variant,
            TraceReader.Options readOptions, Result res) throws IOException {
        try (TraceReader r = TraceReader.open(src, readOptions)) {
            if (!r.endPromised()) {
                res.unverified.add(src);
            }
            boolean ext = variant != Variant.CLASSIC;
            TraceWriter.Options o = new TraceWriter.Options().order(base.order).codec(base.codec)
                    .background(base.background).extended(ext).endRecord(ext)
                    .addr64(ext && (variant == Variant.EXTENDED || r.addr64()));
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
                w.finish();
            }
            res.skipped += r.skipped();
            if (r.skipped() > 0) {
                res.skippedFiles.add(r.skippedSummary());
            }
        }
    }

    /** Records per run taken from the reader at most. */
    private static final int RUN = 1024;
}
