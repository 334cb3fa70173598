package org.dsmscope.trace;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * A trace set: the p trace files of one p-thread (or p-process) run, in thread order.
 *
 * <p>Named as in seed 000 Figure 3, {@code NAME.p} stands for the files {@code NAME.p.0} &hellip;
 * {@code NAME.p.(p-1)}; outputs are named from {@code NAME.p} ({@code NAME.p.ciat_report}). A list file
 * ({@code -t list}, {@code -c list}) names files of any other name, one per line; blank lines and lines starting
 * with {@code #} are ignored, relative names resolve against the list file's folder, and outputs are named from
 * the list file's path.
 */
public final class TraceSet {
    private final String base;
    private final List<Path> files;

    private TraceSet(String base, List<Path> files) {
        this.base = base;
        this.files = Collections.unmodifiableList(files);
    }

    /** The trace set {@code NAME.p}: checks that the name ends in a thread count and that every file exists. */
    public static TraceSet ofPrefix(String prefix) {
        int dot = prefix.lastIndexOf('.');
        int p;
        try {
            p = dot < 0 ? -1 : Integer.parseInt(prefix.substring(dot + 1));
        } catch (NumberFormatException e) {
            p = -1;
        }
        if (p < 1 && InputFile.kind(Paths.get(prefix)) == InputFile.Kind.PIPE) {
            throw new BadInputException(prefix + ": is a pipe; a trace file is read more than once here (a replay's"
                    + " prescan, then the replay): save it to a file first");
        }
        if (p < 1) {
            throw new BadInputException(prefix + ": a trace set is named NAME.p, with p the number of threads"
                    + " (files NAME.p.0 ... NAME.p.(p-1)); use -t LIST for files named otherwise");
        }
        List<Path> files = new ArrayList<>(p);
        for (int t = 0; t < p; t++) {
            Path f = Paths.get(prefix + "." + t);
            InputFile.check(f, null, "trace file", false);
            files.add(f);
        }
        return new TraceSet(prefix, files);
    }

    /** The files named in list file {@code list}. */
    public static TraceSet ofList(Path list) {
        InputFile.check(list, null, "list file", true);
        List<String> lines;
        try {
            lines = Files.readAllLines(list, StandardCharsets.UTF_8);
        } catch (java.nio.charset.CharacterCodingException e) {
            throw new BadInputException(list + ": not a list file (not UTF-8 text; a list file names trace files,"
                    + " one per line; a trace set NAME.p is given without -t)");
        } catch (IOException e) {
            throw new BadInputException(list + ": cannot read list file: " + e.getMessage());
        }
        List<Path> files = new ArrayList<>();
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i).strip();
            if (line.isEmpty() || line.startsWith("#")) {
                continue;
            }
            Path f;
            try {
                f = Paths.get(line);
            } catch (java.nio.file.InvalidPathException e) {
                throw new BadInputException(list + ": line " + (i + 1) + ": not a file name: " + e.getReason());
            }
            if (!f.isAbsolute()) {
                f = list.resolveSibling(line);
            }
            InputFile.check(f, list + ": line " + (i + 1), "trace file", false);
            files.add(f);
        }
        if (files.isEmpty()) {
            throw new BadInputException(list + ": list file names no trace files");
        }
        return new TraceSet(list.toString(), files);
    }

    /** A trace set of explicitly given files; outputs are named from {@code base}. */
    public static TraceSet of(String base, List<Path> files) {
        return new TraceSet(base, new ArrayList<>(files));
    }

    /**
     * The files named on a command line: each argument is a trace file, or a trace set {@code NAME.p} standing for
     * {@code NAME.p.0 … NAME.p.(p-1)} when no file of that exact name exists. Outputs are named from the single
     * argument, or from the first one.
     */
    public static TraceSet ofArguments(List<String> args) {
        if (args.isEmpty()) {
            throw new BadInputException("no trace files given");
        }
        List<Path> files = new ArrayList<>();
        for (String a : args) {
            Path f = Paths.get(a);
            if (Files.exists(f) || !Files.exists(Paths.get(a + ".0"))) {
                InputFile.check(f, null, "trace file", true); // read once: a pipe is streamed
                files.add(f);
            } else {
                files.addAll(ofPrefix(a).files());
            }
        }
        return new TraceSet(args.get(0), files);
    }

    /** The name outputs are derived from ({@code NAME.p} or the list file's path). */
    public String base() {
        return base;
    }

    /** The files in thread order. */
    public List<Path> files() {
        return files;
    }

    /** Number of files (threads or processes). */
    public int size() {
        return files.size();
    }

    /** The conventional file name of thread {@code t} of a {@code p}-thread run named {@code name}. */
    public static String fileName(String name, int p, int t) {
        return name + "." + p + "." + t;
    }
}
