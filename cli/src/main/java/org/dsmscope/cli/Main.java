package org.dsmscope.cli;

import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import org.dsmscope.trace.BadInputException;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * The {@code dsmscope} command: one entry point with a subcommand per tool (SPEC §10). A user's mistake (bad
 * input, bad option) prints one line {@code dsmscope: ...} and exits 2; an internal failure prints its stack trace
 * and exits 1.
 */
@Command(name = "dsmscope", mixinStandardHelpOptions = true, versionProvider = Version.class,
        description = "Characterize shared-memory and DSM applications: trace, replay, analyse, monitor.",
        subcommands = {
            HelpCommand.class,
            // subcommands (keep one per line, sorted by tool)
            CiatCommand.class,
            CdatCommand.class,
            TdatCommand.class,
            ExplainCommand.class,
            ClusterCommand.class,
            ConvertCommand.class,
            DemoCommand.class,
            DsmCommand.class,
            DumpCommand.class,
            ExportCommand.class,
            GenCommand.class,
            ImportCommand.class,
            MonitorCommand.class,
            ReportCommand.class,
            StudyCommand.class,
            SweepCommand.class,
            TraceCommand.class,
            ViewCommand.class,
            // documentation of the tree above, built from it at run time
            CompletionCommand.class,
            ManCommand.class,
        })
public final class Main implements Runnable {

    /** Exit status for a user's mistake. */
    public static final int USAGE = 2;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(spec.commandLine().getOut());
    }

    /** Builds the command line with error handling wired in; tests call {@link #run(String...)}. */
    public static CommandLine commandLine() {
        return handled(new CommandLine(new Main()));
    }

    /**
     * {@code dsmscope cluster …} alone: the launcher of the cluster jar's child JVM ({@link ClusterCommand}) without
     * the rest of the command tree, whose picocli model costs the launcher some half second of CPU before the child
     * starts (cluster/README.md "Running it"); same help, errors and exit statuses.
     */
    static CommandLine clusterCommandLine() {
        CommandLine cl = new CommandLine(new ClusterCommand());
        cl.setCommandName("dsmscope cluster");
        return handled(cl);
    }

    /**
     * True for {@code dsmscope cluster ciat|cdat …} without {@code @file} arguments: every argument after {@code
     * cluster} is then the child JVM's as it stands (picocli would pass them on unparsed), so {@link #launchCluster}
     * starts the child without building a picocli model at all, some tenths of a second of CPU sooner
     * (cluster/README.md "Running it").
     */
    static boolean clusterAnalysis(String[] args) {
        if (args.length < 2 || !args[0].equals("cluster") || !(args[1].equals("ciat") || args[1].equals("cdat"))) {
            return false;
        }
        for (String a : args) {
            if (a.startsWith("@")) {
                return false;
            }
        }
        return true;
    }

    /**
     * Runs {@link ClusterCommand} on {@code args} (what follows {@code cluster}) as {@link #clusterCommandLine} would,
     * with its error lines on {@code err}; returns the exit status.
     */
    static int launchCluster(String[] args, PrintWriter err) {
        ClusterCommand c = new ClusterCommand();
        c.args.addAll(java.util.List.of(args));
        try {
            return c.call();
        } catch (Exception e) {
            return handle(e, err);
        } finally {
            err.flush();
        }
    }

    private static CommandLine handled(CommandLine cl) {
        cl.setExecutionExceptionHandler(Main::handle);
        cl.setParameterExceptionHandler((ex, args) -> {
            PrintWriter err = ex.getCommandLine().getErr();
            err.println("dsmscope: " + printable(String.valueOf(ex.getMessage())));
            err.println("Try '" + ex.getCommandLine().getCommandSpec().qualifiedName() + " --help' for usage.");
            return USAGE;
        });
        return cl;
    }

    private static int handle(Exception ex, CommandLine cl, CommandLine.ParseResult pr) {
        return handle(ex, cl.getErr());
    }

    private static int handle(Exception ex, PrintWriter err) {
        String msg = userMessage(ex);
        if (msg != null) {
            err.println("dsmscope: " + printable(msg));
            err.flush();
            return USAGE;
        }
        ex.printStackTrace(err);
        return 1;
    }

    /**
     * {@code msg} with what would not print as itself escaped: control characters (a NUL or line break from a
     * user's file) as {@code \xNN}, so that the message stays one readable line.
     */
    static String printable(String msg) {
        StringBuilder b = null;
        for (int i = 0; i < msg.length(); i++) {
            char c = msg.charAt(i);
            if (c < 0x20 || c == 0x7f) {
                if (b == null) {
                    b = new StringBuilder(msg.substring(0, i));
                }
                b.append(String.format("\\x%02x", (int) c));
            } else if (b != null) {
                b.append(c);
            }
        }
        return b == null ? msg : b.toString();
    }

    /** The one-line message for a user's mistake, or null for an internal failure. */
    static String userMessage(Throwable ex) {
        for (Throwable t = ex; t != null; t = t.getCause()) {
            if (t instanceof BadInputException || t instanceof UserError) {
                return t.getMessage();
            }
            if (t instanceof NoSuchFileException) {
                return t.getMessage() + ": no such file";
            }
            if (t instanceof AccessDeniedException) {
                return t.getMessage() + ": permission denied";
            }
            if (t instanceof FileSystemException) {
                return fileSystemMessage((FileSystemException) t);
            }
            if (t instanceof UncheckedIOException && t.getMessage() != null) {
                return t.getMessage();
            }
        }
        return null;
    }

    /** One line for any other file-system refusal ("X: Not a directory", "X: already exists", ...). */
    private static String fileSystemMessage(FileSystemException e) {
        if (e.getReason() != null) {
            return e.getMessage();
        }
        String what = e instanceof NotDirectoryException ? "not a directory"
                : e instanceof FileAlreadyExistsException ? "already exists" : "cannot access";
        return e.getFile() + (e.getOtherFile() != null ? " -> " + e.getOtherFile() : "") + ": " + what;
    }

    /** Runs the command and returns its exit status. */
    public static int run(String... args) {
        return commandLine().execute(args);
    }

    /** Entry point. */
    public static void main(String[] args) {
        int status;
        try {
            if (clusterAnalysis(args)) {
                status = launchCluster(java.util.Arrays.copyOfRange(args, 1, args.length),
                        new PrintWriter(System.err, true));
            } else {
                status = args.length > 0 && args[0].equals("cluster")
                        ? clusterCommandLine().execute(java.util.Arrays.copyOfRange(args, 1, args.length)) : run(args);
            }
        } catch (OutOfMemoryError e) {
            status = outOfMemory(e, System.err);
        }
        System.exit(status);
    }

    /**
     * Reports that the heap was too small, in one line saying how to give more, instead of a stack trace; returns
     * exit status 1 (not the user's mistake, but one the user can fix).
     */
    static int outOfMemory(OutOfMemoryError e, java.io.PrintStream err) {
        long max = Runtime.getRuntime().maxMemory() >> 20;
        err.println("dsmscope: out of memory (" + e.getMessage() + ", heap at most " + max + " MiB): run with a"
                + " larger heap, e.g. DSMSCOPE_JAVA_OPTS=-Xmx" + Math.max(2, 2 * ((max + 1023) >> 10))
                + "g dsmscope ..."
                + " (java -Xmx...g -jar dsmscope.jar ...)");
        err.flush();
        return 1;
    }
}
