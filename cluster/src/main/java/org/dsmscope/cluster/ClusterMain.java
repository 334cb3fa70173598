package org.dsmscope.cluster;

import java.io.PrintWriter;
import org.dsmscope.trace.BadInputException;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * The cluster jar's main ({@code java -jar dsmscope-cluster-VERSION-all.jar ciat|cdat …}, {@code spark-submit --class
 * org.dsmscope.cluster.ClusterMain …}, and what {@code dsmscope cluster} runs): a user's mistake prints one line
 * {@code dsmscope: …} and exits 2, an internal failure its stack trace and exits 1.
 */
@Command(name = "dsmscope cluster", mixinStandardHelpOptions = true,
        description = {"CIAT and CDAT in partitions on an Apache Spark cluster, with the serial run's outputs",
            "(cluster/README.md)."},
        subcommands = {CiatJob.class, CdatJob.class})
public final class ClusterMain implements Runnable {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        throw new CommandLine.ParameterException(spec.commandLine(), "give a command: ciat or cdat");
    }

    /** Runs the command line {@code args} with the given output streams; returns the exit status. */
    public static int run(PrintWriter out, PrintWriter err, String... args) {
        CommandLine cl = new CommandLine(new ClusterMain());
        cl.setOut(out);
        cl.setErr(err);
        cl.setExecutionExceptionHandler((e, line, parsed) -> {
            Throwable t = e;
            if (t instanceof ClusterError || t instanceof BadInputException) {
                err.println("dsmscope: " + t.getMessage());
                err.flush();
                return 2;
            }
            if (t instanceof org.apache.spark.SparkException) {
                String m = String.valueOf(t.getMessage());
                int nl = m.indexOf('\n');
                err.println("dsmscope: cluster: the Spark job failed: " + (nl < 0 ? m : m.substring(0, nl)));
                err.flush();
                return 1;
            }
            throw e;
        });
        cl.setParameterExceptionHandler((e, a) -> {
            err.println("dsmscope: " + e.getMessage());
            err.println("Try '" + e.getCommandLine().getCommandSpec().qualifiedName() + " --help' for usage.");
            err.flush();
            return 2;
        });
        return cl.execute(args);
    }

    /** The entry point; exits with the command's status. */
    public static void main(String[] args) {
        Warmup.start();
        PrintWriter out = new PrintWriter(System.out, true);
        PrintWriter err = new PrintWriter(System.err, true);
        int status = run(out, err, args);
        out.flush();
        err.flush();
        System.exit(status);
    }
}
