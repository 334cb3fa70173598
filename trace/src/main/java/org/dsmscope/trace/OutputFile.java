package org.dsmscope.trace;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

/**
 * How the analyses' outputs (CIAT's, CDAT's) reach their names: each file is written to a sibling
 * {@code NAME.partial} and renamed to {@code NAME} only once complete, so a failed or interrupted run never leaves a
 * partial report, memory usage file, event trace, traffic trace or JSON file under the name of a complete one.
 */
public final class OutputFile {
    private OutputFile() {
    }

    /** The temporary sibling {@code path} is written to first. */
    public static Path partial(Path path) {
        return path.resolveSibling(path.getFileName() + ".partial");
    }

    /** Renames the complete {@code partial} file to {@code path}, replacing an older {@code path}. */
    public static void commit(Path partial, Path path) {
        try {
            Files.move(partial, path, StandardCopyOption.REPLACE_EXISTING);
        } catch (IOException e) {
            discard(partial);
            throw new UncheckedIOException(path + ": cannot write: " + e.getMessage(), e);
        }
    }

    /** Deletes an abandoned {@code partial} file, if there is one (best effort: a failure is already reported). */
    public static void discard(Path partial) {
        try {
            Files.deleteIfExists(partial);
        } catch (IOException e) {
            // the error that made the output abandoned is the one the user needs to see
        }
    }

    /** Something that writes a file's content to a path. */
    public interface Body {
        /** Writes the whole content to {@code path}. */
        void write(Path path) throws IOException;
    }

    /** Writes {@code path} through its partial sibling with {@code body}; errors name {@code path}. */
    public static void write(Path path, Body body) {
        Path tmp = partial(path);
        try {
            body.write(tmp);
        } catch (IOException e) {
            discard(tmp);
            throw new UncheckedIOException(path + ": cannot write: " + e.getMessage(), e);
        } catch (RuntimeException e) {
            discard(tmp);
            throw e;
        }
        commit(tmp, path);
    }
}
