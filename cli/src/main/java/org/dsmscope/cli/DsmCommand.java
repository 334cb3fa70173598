package org.dsmscope.cli;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import org.dsmscope.dsm.Launcher;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code dsmscope dsm run}: runs a DSM program's members as separate JVMs on loopback (SPEC §9). */
@Command(name = "dsm", mixinStandardHelpOptions = true, description = "Run programs on the DSM runtime (JGroups on 127.0.0.1).",
        subcommands = {DsmCommand.Run.class})
public final class DsmCommand implements Runnable {
    @picocli.CommandLine.Spec
    picocli.CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(spec.commandLine().getOut());
    }

    /** {@code dsm run --members N [--loss P] [--delay MS] [--record FILE] [--live PORT] -- CLASS ARGS}. */
    @Command(name = "run", mixinStandardHelpOptions = true, description = "Start N members as separate JVMs, collect their output, optionally record.")
    static final class Run implements Callable<Integer> {
        @Option(names = "--members", description = "Number of member JVMs (default 4).", defaultValue = "4")
        int members;

        @Option(names = "--loss", description = "Packet loss probability on arrival, JGroups DISCARD (default 0).",
                defaultValue = "0")
        double loss;

        @Option(names = "--delay", description = "Delay added to arriving packets in ms, JGroups DELAY.",
                defaultValue = "0")
        int delay;

        @Option(names = "--record", description = "Record all three monitoring levels to FILE (DSMSCOPE-REC v2).")
        Path record;

        @Option(names = "--levels", defaultValue = "all", paramLabel = "LIST",
                description = {"Monitoring levels to record from the start: program, message, transport (comma-"
                    + "separated), all or none (default all).",
                    "With --control, a line 'levels LIST' on standard input switches them while the members run."})
        String levels;

        @Option(names = "--control", description = "Read run-time commands ('levels LIST') from standard input.")
        boolean control;

        @Option(names = "--live", paramLabel = "PORT", defaultValue = "-1",
                description = {"Also stream the events live to viewers connecting to 127.0.0.1:PORT (0: a free port,"
                    + " printed), e.g. 'dsmscope monitor watch --port PORT'; format dsmscope-live 1.",
                    "Members emit only the classes that the recorder and the connected viewers want."})
        int live;

        @Option(names = "--live-wait", paramLabel = "S", defaultValue = "0",
                description = "With --live: wait up to S seconds for a first viewer before starting the members.")
        long liveWait;

        @Option(names = "--live-queue", paramLabel = "N", defaultValue = "65536",
                description = "With --live: each viewer's queue holds N events; a slower viewer loses events (counted),"
                    + " never the members' time (default 65536).")
        int liveQueue;

        @Option(names = "--timeout", description = "Stop members still running after this many seconds (default 120).",
                defaultValue = "120")
        long timeout;

        @Option(names = "--classpath", description = "Classpath of the members (default: dsmscope's own).")
        String classpath;

        @Parameters(arity = "1..*", paramLabel = "CLASS ARGS", description = "A DsmApp class and its arguments.")
        List<String> command = new ArrayList<>();

        @Override
        public Integer call() throws Exception {
            if (members < 1 || members > 64) {
                throw new UserError("--members must be between 1 and 64, got " + members);
            }
            if (!(loss >= 0 && loss < 1)) { // NaN too
                throw new UserError("--loss must be in [0, 1), got " + loss);
            }
            if (delay < 0) {
                throw new UserError("--delay must not be negative");
            }
            if (timeout < 1) {
                throw new UserError("--timeout must be at least 1 second, got " + timeout);
            }
            if (record != null) {
                RunFiles.checkWritable(List.of(record));
            }
            try {
                Class<?> c = Class.forName(command.get(0));
                if (!org.dsmscope.dsm.DsmApp.class.isAssignableFrom(c)) {
                    throw new UserError(command.get(0) + " does not implement org.dsmscope.dsm.DsmApp");
                }
            } catch (ClassNotFoundException e) {
                if (classpath == null) {
                    throw new UserError(command.get(0) + ": no such class on the classpath");
                }
            }
            int mask;
            try {
                mask = org.dsmscope.monitor.event.Level.parseMask(levels);
            } catch (IllegalArgumentException e) {
                throw new UserError("--levels: " + e.getMessage());
            }
            Launcher.Options o = new Launcher.Options();
            o.levels = mask;
            if (control && record == null) {
                throw new UserError("--control switches recorded levels: it needs --record FILE");
            }
            o.control = control ? System.in : null;
            if (live < -1 || live > 65535) {
                throw new UserError("--live must be a port 0..65535, got " + live);
            }
            if (liveQueue < 1) {
                throw new UserError("--live-queue must be at least 1, got " + liveQueue);
            }
            if (liveWait < 0) {
                throw new UserError("--live-wait must not be negative");
            }
            o.livePort = live;
            o.liveWaitSeconds = liveWait;
            o.liveQueue = liveQueue;
            o.members = members;
            o.loss = loss;
            o.delayMillis = delay;
            o.record = record;
            o.timeoutSeconds = timeout;
            o.classpath = classpath;
            o.command = command;
            try {
                return Launcher.run(o, System.out, System.err);
            } catch (java.net.BindException e) {
                throw new UserError(e.getMessage());
            }
        }
    }
}
