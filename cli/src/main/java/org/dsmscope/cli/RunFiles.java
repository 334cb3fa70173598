package org.dsmscope.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.dsmscope.trace.TraceSet;
import org.dsmscope.trace.sidecar.DataMap;
import org.dsmscope.trace.sidecar.SymbolFile;

/**
 * The files one run of a command reads and writes, checked before any work (SPEC §2, bad input): an output never
 * replaces a file the same run reads, nor another output of the run (paths compared as real paths, links
 * followed), and every output can be written. Also the one warning line for trace files that cannot be verified
 * complete.
 */
final class RunFiles {
    private RunFiles() {
    }

    /**
     * Refuses, in one line naming the output, an output that is one of {@code inputs}, that two outputs share, or
     * that could not be written ({@link #checkWritable}).
     */
    static void check(Collection<Path> inputs, Collection<Path> outputs) {
        checkWritable(outputs);
        Map<Path, Path> in = new HashMap<>();
        for (Path p : inputs) {
            Path real = real(p);
            if (real != null) {
                in.putIfAbsent(real, p);
            }
        }
        Map<Path, Path> out = new HashMap<>();
        for (Path p : outputs) {
            Path real = real(p);
            if (real == null) {
                continue;
            }
            Path read = in.get(real);
            if (read != null) {
                throw new UserError(p + ": is " + (read.equals(p) ? "" : read + ", ") + "an input of this run; an"
                        + " output never replaces an input: give the output another name");
            }
            Path other = out.putIfAbsent(real, p);
            if (other != null) {
                throw new UserError(p + ": is also " + (other.equals(p) ? "another output" : other) + " of this"
                        + " run; give each output its own name");
            }
        }
    }

    /**
     * Refuses, in one line naming the input, an input that is a file of the trace set {@code name.p} for any p (its
     * real path {@code NAME.p.t}, or with {@code sidecars} any {@code NAME.p.*}: reports, symbols, data maps): for
     * commands that learn p only while they write, such as {@code import lackey} and {@code trace}.
     */
    static void checkSetName(Collection<Path> inputs, String name, boolean sidecars) {
        java.util.regex.Pattern files = setFiles(name, sidecars);
        for (Path p : inputs) {
            Path real = real(p);
            if (files != null && real != null && Files.exists(real) && inSet(real, name, files)) {
                throw new UserError(p + ": is " + (real.equals(p.toAbsolutePath().normalize()) ? "" : real + ", ")
                        + "a file of the output trace set " + name + ".p; an output never replaces an input: give"
                        + " -o another name");
            }
        }
    }

    /**
     * Refuses, in one line naming the output, an output (such as a {@code --json FILE} passed on to an analysis)
     * whose real path is a file name of the trace set {@code name.p} that the same run writes ({@code NAME.p.*}).
     */
    static void checkOutsideSet(Collection<Path> outputs, String name) {
        java.util.regex.Pattern files = setFiles(name, true);
        for (Path p : outputs) {
            Path real = real(p);
            if (files != null && real != null && inSet(real, name, files)) {
                throw new UserError(p + ": is a file name of the trace set " + name + ".p that this run writes ("
                        + name + ".p.*); give the output another name");
            }
        }
    }

    /** The file names of trace set {@code name.p} for any p ({@code sidecars}: any {@code NAME.p.*}), or null. */
    private static java.util.regex.Pattern setFiles(String name, boolean sidecars) {
        Path out = real(Path.of(name));
        if (out == null || out.getFileName() == null) {
            return null;
        }
        return java.util.regex.Pattern.compile(java.util.regex.Pattern.quote(out.getFileName().toString())
                + (sidecars ? "\\.[0-9]+\\..+" : "\\.[0-9]+\\.[0-9]+"));
    }

    /** True if real path {@code real} is in the folder of trace set {@code name} and matches {@code files}. */
    private static boolean inSet(Path real, String name, java.util.regex.Pattern files) {
        Path out = real(Path.of(name));
        return out != null && out.getParent().equals(real.getParent())
                && files.matcher(real.getFileName().toString()).matches();
    }

    /**
     * The real path {@code p} names or would name: links followed, relative names resolved; for a file not yet
     * there, its folder's real path and its name; null if even the folder does not exist (nothing to collide).
     */
    static Path real(Path p) {
        try {
            if (Files.exists(p)) {
                return p.toRealPath();
            }
            if (Files.isSymbolicLink(p)) {
                // a dangling link: writing through it creates its target
                Path target = Files.readSymbolicLink(p);
                return real(p.toAbsolutePath().resolveSibling(target));
            }
            Path abs = p.toAbsolutePath().normalize();
            Path parent = abs.getParent();
            if (parent == null || !Files.isDirectory(parent)) {
                return null;
            }
            return parent.toRealPath().resolve(abs.getFileName());
        } catch (IOException e) {
            return null;
        }
    }

    /** Refuses outputs that could not be written: a directory of that name, a missing or read-only folder. */
    static void checkWritable(Collection<Path> outs) {
        for (Path p : outs) {
            if (Files.isDirectory(p)) {
                throw new UserError(p + ": cannot write: is a directory");
            }
            if (Files.exists(p, LinkOption.NOFOLLOW_LINKS) && !Files.isRegularFile(p)) {
                throw new UserError(p + ": cannot write: not a regular file (a device, pipe or socket)");
            }
            Path parent = p.toAbsolutePath().getParent();
            if (parent != null && !Files.isDirectory(parent)) {
                throw new UserError(p + ": cannot write: folder " + parent
                        + (Files.exists(parent) ? " is not a directory" : " does not exist"));
            }
            if (parent != null) {
                // outputs are written beside their names and renamed into place: the folder must take new files
                String why = refusesNewFiles(parent);
                if (why != null) {
                    throw new UserError(p + ": cannot write: folder " + parent + " " + why);
                }
            }
        }
    }

    /**
     * Why folder {@code dir} does not take new files ("is not writable", "does not exist"), or null if it does:
     * found by creating and deleting an empty file there, which also holds for root (for whom every folder looks
     * writable) and for folders such as /proc that refuse new files whatever their permissions say.
     */
    static String refusesNewFiles(Path dir) {
        if (!Files.isDirectory(dir)) {
            return Files.exists(dir) ? "is not a directory" : "does not exist";
        }
        if (!Files.isWritable(dir)) {
            return "is not writable";
        }
        try {
            Files.delete(Files.createTempFile(dir, ".dsmscope-", ".probe"));
            return null;
        } catch (IOException e) {
            return "does not take new files (" + (e instanceof java.nio.file.FileSystemException
                    && ((java.nio.file.FileSystemException) e).getReason() != null
                    ? ((java.nio.file.FileSystemException) e).getReason() : e.getClass().getSimpleName()) + ")";
        }
    }

    /**
     * The files a replay of {@code sets} reads (null sets skipped): the trace files, the list file when the set came
     * from one, and the sidecars beside the detailed set.
     */
    static List<Path> traceInputs(TraceSet... sets) {
        List<Path> in = new ArrayList<>();
        for (TraceSet s : sets) {
            if (s == null) {
                continue;
            }
            in.addAll(s.files());
            Path base = Path.of(s.base());
            if (Files.isRegularFile(base)) {
                in.add(base); // a list file
            }
            in.add(SymbolFile.pathFor(s.base()));
            in.add(DataMap.pathFor(s.base()));
        }
        return in;
    }

    /**
     * Warns, in one line on standard error, that {@code files} cannot be verified complete (the analysis goes on
     * with the records they hold).
     */
    static void warnUnverified(PrintWriter err, List<Path> files) {
        if (files.isEmpty()) {
            return;
        }
        StringBuilder names = new StringBuilder();
        for (int i = 0; i < Math.min(files.size(), 3); i++) {
            names.append(i == 0 ? "" : ", ").append(files.get(i));
        }
        if (files.size() > 3) {
            names.append(" and ").append(files.size() - 3).append(" more");
        }
        err.println("dsmscope: warning: " + names + ": cannot be verified complete (no end record: classic SMAIT,"
                + " or written by an older dsmscope); the results cover the records "
                + (files.size() == 1 ? "it holds" : "they hold") + " (dsmscope convert adds an end record)");
        err.flush();
    }
}
