package org.dsmscope.cluster;

import org.apache.spark.deploy.SparkHadoopUtil;

/**
 * The one-time initialization every Spark context start runs on the driver's main thread, started on a thread of
 * its own as the driver's JVM starts (SPEC §4 "Partitioning", cluster/README.md "Running it"), so that it runs
 * while the main thread parses and checks the command line and its prescan plans: Spark's configuration classes and
 * logging, and {@link SparkHadoopUtil}'s Hadoop configuration (Hadoop's {@code core-default.xml} parsed) with the
 * {@code UserGroupInformation} set up from it. The context then finds them made. None of it depends on the command
 * line: {@link SparkHadoopUtil#get} reads only the JVM's system properties, whenever it is first called, so the
 * context sees the same instance it would have made itself. A failure here is left to the context, which meets it
 * again where it would have.
 */
final class Warmup {
    private Warmup() {
    }

    /** Starts the warm-up on a daemon thread; returns at once. */
    static void start() {
        Thread t = new Thread(Warmup::run, "dsmscope-warmup");
        t.setDaemon(true);
        t.start();
    }

    private static void run() {
        try {
            SparkHadoopUtil.get();
        } catch (RuntimeException | LinkageError e) {
            // only time is saved here: the Spark context makes the same call and reports what fails
        }
    }
}
