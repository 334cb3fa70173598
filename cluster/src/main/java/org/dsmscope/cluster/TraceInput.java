package org.dsmscope.cluster;

import java.io.IOException;
import java.io.Serializable;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Locale;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.dsmscope.trace.BadInputException;
import org.dsmscope.trace.TraceSet;

/**
 * A trace set named by a URI (SPEC §4 "Partitioning": the plan runs on the driver, each Spark task opens the trace
 * set itself): a plain path or a {@code file:} URI is read where it lies, on the driver and on every executor (a
 * local disk for {@code local[*]}, a shared NFS path on a cluster); any other scheme ({@code hdfs:}, {@code s3a:},
 * …) goes through Hadoop's {@code FileSystem}, which copies the set's files ({@code NAME.p.*}) into a local
 * scratch folder first, because the replay maps its files. {@code --read copy} copies local files that way too.
 */
final class TraceInput implements Serializable {
    private static final long serialVersionUID = 1L;
    /** How the files are read: {@code auto}, {@code direct} (a local path, never copied) or {@code copy}. */
    enum Read { AUTO, DIRECT, COPY }

    /** The URI or path as given (the driver's output names come from it). */
    final String given;
    /** Absolute local path (local inputs), else null. */
    final String localPath;
    /** The Hadoop URI of the set's prefix (every input: also the local ones, for {@code --read copy}). */
    final String hadoopUri;
    private final Read read;

    private TraceInput(String given, String localPath, String hadoopUri, Read read) {
        this.given = given;
        this.localPath = localPath;
        this.hadoopUri = hadoopUri;
        this.read = read;
    }

    /** The input named {@code given}, read as {@code read} says ({@code auto}, {@code direct} or {@code copy}). */
    static TraceInput of(String given, String read) {
        Read r;
        try {
            r = Read.valueOf(read.toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new ClusterError("option --read: '" + read + "' is not auto, direct or copy");
        }
        String scheme = null;
        int colon = given.indexOf(':');
        if (colon > 1 && given.substring(0, colon).matches("[A-Za-z][A-Za-z0-9+.-]*")) {
            scheme = given.substring(0, colon).toLowerCase(Locale.ROOT);
        }
        if (scheme == null || scheme.equals("file")) {
            Path p;
            try {
                p = scheme == null ? Paths.get(given) : Paths.get(new URI(given));
            } catch (URISyntaxException | IllegalArgumentException e) {
                throw new ClusterError(given + ": not a path or file: URI (" + e.getMessage() + ")");
            }
            Path abs = p.toAbsolutePath().normalize();
            return new TraceInput(given, abs.toString(), abs.toUri().toString(), r);
        }
        if (r == Read.DIRECT) {
            throw new ClusterError(given + ": --read direct needs a local path or file: URI");
        }
        return new TraceInput(given, null, given, r);
    }

    /** True if the files are read where they lie (no copy). */
    boolean direct() {
        return localPath != null && read != Read.COPY;
    }

    /** The trace set name's last part ({@code fj.4}), which the copies and the outputs keep. */
    String name() {
        return localPath != null ? Paths.get(localPath).getFileName().toString()
                : new org.apache.hadoop.fs.Path(hadoopUri).getName();
    }

    /**
     * Opens the trace set here: the files where they lie ({@link #direct}, with {@code root} prefixed when not
     * null: a test's stand-in for a worker that mounts the shared file system elsewhere), else copies of them in
     * {@code scratch}, read through Hadoop with configuration {@code conf}. A set that cannot be read throws
     * {@link BadInputException} naming the file.
     */
    TraceSet open(Path scratch, Configuration conf, String root) {
        return open(scratch, conf, root, false);
    }

    /**
     * {@link #open(Path, Configuration, String)}; with {@code namesOnly}, a copied set's thread traces ({@code
     * NAME.p.0} …) are left where they lie and stand as empty files in {@code scratch}: a replay of routed streams
     * ({@link Shuffle}) takes only their names, the call traces and the sidecars from the set.
     */
    TraceSet open(Path scratch, Configuration conf, String root, boolean namesOnly) {
        if (direct()) {
            return TraceSet.ofPrefix(root == null ? localPath : root + localPath);
        }
        String name = name();
        copy(scratch, conf, p -> p.getName().startsWith(name + ".") && !p.getName().endsWith(".crc"),
                namesOnly ? threadTrace(name) : null, ".0: no such file (no file " + name + ".* in %s)");
        try {
            return TraceSet.ofPrefix(scratch.resolve(name).toString());
        } catch (BadInputException e) {
            throw new BadInputException(named(e.getMessage(), scratch), e);
        }
    }

    /**
     * {@code message} with the files of {@code scratch}, this set's copies, named by the URI they were copied from
     * ({@code /tmp/dsmscope-cluster-…/fj.4.3} becomes {@code hdfs://nn/traces/fj.4.3}); as it is where the files are
     * read where they lie ({@code scratch} null).
     */
    String named(String message, Path scratch) {
        if (scratch == null || message == null) {
            return message;
        }
        String folder = new org.apache.hadoop.fs.Path(hadoopUri).getParent().toString();
        return message.replace(scratch + java.io.File.separator, folder + "/");
    }

    /**
     * Thread {@code t}'s trace file, read where it lies ({@link #direct}; {@code root} as in {@link #open}) or copied
     * alone into {@code scratch}: what a shuffle's map task routes ({@link Shuffle}).
     */
    Path file(int t, Path scratch, Configuration conf, String root) {
        if (direct()) {
            return TraceSet.ofPrefix(root == null ? localPath : root + localPath).files().get(t);
        }
        String want = name() + "." + t;
        copy(scratch, conf, p -> p.getName().equals(want), null, "." + t + ": no such file (not in %s)");
        return scratch.resolve(want);
    }

    /** A thread trace file of set {@code name} ({@code NAME.p.t}, with p the set's number of threads). */
    private static java.util.function.Predicate<String> threadTrace(String name) {
        return f -> f.startsWith(name + ".") && f.substring(name.length() + 1).matches("[0-9]+");
    }

    /**
     * Copies the files of this set's folder that {@code which} accepts into {@code scratch} through Hadoop, those
     * {@code empty} accepts (if not null) as empty files; throws {@link BadInputException} when none is there (this
     * set's URI, then {@code missing} with the folder for {@code %s}).
     */
    private void copy(Path scratch, Configuration conf, org.apache.hadoop.fs.PathFilter which,
            java.util.function.Predicate<String> empty, String missing) {
        org.apache.hadoop.fs.Path prefix = new org.apache.hadoop.fs.Path(hadoopUri);
        try {
            FileSystem fs = fileSystem(prefix, conf);
            FileStatus[] list = fs.listStatus(prefix.getParent(), which);
            int copied = 0;
            for (FileStatus s : list) {
                if (s.isFile()) {
                    String f = s.getPath().getName();
                    if (empty != null && empty.test(f)) {
                        Files.createFile(scratch.resolve(f));
                    } else {
                        fs.copyToLocalFile(false, s.getPath(), new org.apache.hadoop.fs.Path(
                                scratch.resolve(f).toUri()), true);
                    }
                    copied++;
                }
            }
            if (copied == 0) {
                throw new BadInputException(hadoopUri + String.format(missing, prefix.getParent()));
            }
        } catch (java.io.FileNotFoundException e) {
            throw new BadInputException(hadoopUri + ": no such file or folder (" + e.getMessage() + ")");
        } catch (IOException e) {
            String m = String.valueOf(e.getMessage());
            int nl = m.indexOf('\n');
            throw new BadInputException(hadoopUri + ": cannot read: " + (nl < 0 ? m : m.substring(0, nl)), e);
        }
    }

    /**
     * The Hadoop file system of {@code prefix}; one whose connector is not on the class path ({@code s3a:} without
     * {@code hadoop-aws}: Hadoop's default configuration names the class) throws {@link BadInputException}.
     */
    private FileSystem fileSystem(org.apache.hadoop.fs.Path prefix, Configuration conf) throws IOException {
        try {
            return prefix.getFileSystem(conf);
        } catch (RuntimeException e) {
            if (e.getCause() instanceof ClassNotFoundException) {
                throw new BadInputException(hadoopUri + ": cannot read: the connector of scheme "
                        + prefix.toUri().getScheme() + " is not on the class path (" + e.getCause().getMessage()
                        + "; cluster/README.md \"Trace sets on HDFS and S3\")", e);
            }
            throw e;
        }
    }

    /** A new scratch folder for copies (null when the files are read where they lie). */
    Path scratch() {
        if (direct()) {
            return null;
        }
        try {
            return Files.createTempDirectory("dsmscope-cluster-");
        } catch (IOException e) {
            throw new UncheckedIOException("cannot make a scratch folder: " + e.getMessage(), e);
        }
    }

    /** Deletes a scratch folder made by {@link #scratch} and its copies (nothing for null). */
    static void delete(Path scratch) {
        if (scratch == null) {
            return;
        }
        try (var files = Files.list(scratch)) {
            for (Path f : (Iterable<Path>) files::iterator) {
                Files.deleteIfExists(f);
            }
            Files.deleteIfExists(scratch);
        } catch (IOException e) {
            // scratch copies; the folder is under the temporary folder
        }
    }
}
