package org.dsmscope.trace;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * What an input path names, and the one-line refusal of what cannot be read as a given input (SPEC §2, bad input):
 * a missing file, a directory, a device ({@code /dev/zero} would never end), and a pipe or FIFO where the input is
 * read more than once (trace sets: the replay's prescan, then the replay). A pipe is streamed where an input is read
 * once ({@code dump}, {@code convert}, text inputs).
 */
public final class InputFile {
    private InputFile() {
    }

    /** What a path names, links followed. */
    public enum Kind {
        /** A regular file. */
        REGULAR,
        /** A directory. */
        DIRECTORY,
        /** A pipe or FIFO ({@code /dev/stdin} of a pipeline, a shell's {@code <(...)}). */
        PIPE,
        /** A character or block device, a socket or anything else that is not a file of records. */
        DEVICE,
        /** Nothing (or a link to nothing). */
        MISSING
    }

    /** S_IFMT and its values (stat(2)). */
    private static final int S_IFMT = 0170000;
    private static final int S_IFIFO = 0010000;

    /** The kind of file {@code p} names. */
    public static Kind kind(Path p) {
        if (!Files.exists(p)) {
            return Kind.MISSING;
        }
        if (Files.isRegularFile(p)) {
            return Kind.REGULAR;
        }
        if (Files.isDirectory(p)) {
            return Kind.DIRECTORY;
        }
        try {
            Object mode = Files.getAttribute(p, "unix:mode");
            if (mode instanceof Integer && ((Integer) mode & S_IFMT) == S_IFIFO) {
                return Kind.PIPE;
            }
        } catch (IOException | UnsupportedOperationException | IllegalArgumentException e) {
            // no unix view: not a file of records in any case
        }
        return Kind.DEVICE;
    }

    /**
     * Refuses, with a {@link BadInputException} naming {@code p} ({@code where}: prefix of the message, or null),
     * what cannot be read as a {@code what} ("trace file", "configuration file"): missing, a directory, unreadable,
     * a device, or a pipe unless {@code pipeOk}.
     */
    public static Kind check(Path p, String where, String what, boolean pipeOk) {
        String prefix = (where == null ? "" : where + ": ") + p;
        Kind k = kind(p);
        switch (k) {
            case MISSING:
                throw new BadInputException(prefix + ": no such " + what);
            case DIRECTORY:
                throw new BadInputException(prefix + ": is a directory, not " + article(what) + what);
            case DEVICE:
                throw new BadInputException(prefix + ": is a device, not " + article(what) + what);
            case PIPE:
                if (!pipeOk) {
                    throw new BadInputException(prefix + ": is a pipe; " + article(what) + what + " is read more than once here:"
                            + " save it to a file first");
                }
                break;
            default:
                break;
        }
        if (!Files.isReadable(p)) {
            throw new BadInputException(prefix + ": " + what + " is not readable (permission denied)");
        }
        return k;
    }

    private static String article(String what) {
        return "aeiou".indexOf(what.charAt(0)) >= 0 ? "an " : "a ";
    }
}
