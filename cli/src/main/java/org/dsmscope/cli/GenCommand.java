package org.dsmscope.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import org.dsmscope.replay.gen.ForkJoinGen;
import org.dsmscope.replay.gen.ProcessGen;
import org.dsmscope.trace.Codec;
import org.dsmscope.trace.TraceSet;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/**
 * {@code dsmscope gen}: writes synthetic trace sets (SPEC §1, §10) with the generators of the replay module
 * ({@link ForkJoinGen}, {@link ProcessGen}); the parameters are documented in replay/README.md.
 */
@Command(name = "gen", description = "Write a synthetic trace set (fork-join threads or TPC-style processes).",
        mixinStandardHelpOptions = true,
        subcommands = {GenCommand.ForkJoin.class, GenCommand.Processes.class})
public final class GenCommand implements Runnable {
    @Spec
    CommandSpec spec;

    @Override
    public void run() {
        throw new UserError("gen: name a generator: forkjoin or processes (see dsmscope gen --help)");
    }

    /** Creates the output folder {@code out} if needed and checks {@code name}; returns the folder. */
    static Path dir(Path out, String name) {
        if (Files.exists(out) && !Files.isDirectory(out)) {
            throw new UserError("gen: cannot create output folder " + out + ": a file of that name exists");
        }
        try {
            Files.createDirectories(out);
        } catch (IOException e) {
            String why = Main.userMessage(e);
            throw new UserError("gen: cannot create output folder " + out + ": " + (why != null ? why : e));
        }
        if (name.isEmpty() || name.endsWith("/")) {
            throw new UserError("option --name: '" + name + "' is not a trace set name (files NAME.p.t)");
        }
        CliOptions.outputName("-o/--name", out.resolve(name).toString());
        return out;
    }

    static void report(PrintWriter out, TraceSet set) {
        long bytes = 0;
        for (Path f : set.files()) {
            try {
                bytes += Files.size(f);
            } catch (IOException e) {
                throw new UserError(f + ": " + e.getMessage());
            }
        }
        out.println("wrote " + set.base() + " (" + set.size() + " files, " + bytes + " bytes)");
        out.flush();
    }

    /** Fork-join thread programs with barriers and locks. */
    @Command(name = "forkjoin", mixinStandardHelpOptions = true,
            description = "Serial init, spawn, parallel phase with barriers and critical sections, join, wrap-up.")
    static final class ForkJoin implements Callable<Integer> {
        @Spec
        CommandSpec spec;
        @Option(names = {"-o", "--out"}, description = "Output folder (default: .).", defaultValue = ".")
        Path out;
        @Option(names = "--name", description = "Trace set name (files NAME.p.t; default forkjoin).",
                defaultValue = "forkjoin")
        String name;
        @Option(names = "--threads", description = "Threads (default 4).", defaultValue = "4")
        int threads;
        @Option(names = "--instructions", description = "Memory accesses per thread in the parallel phase"
                + " (default 100000).", defaultValue = "100000")
        long instructions;
        @Option(names = "--serial", description = "Accesses of the serial init phase (default instructions/10).")
        Long serial;
        @Option(names = "--shared", description = "Fraction of parallel accesses to shared data (default 0.3).",
                defaultValue = "0.3")
        double shared;
        @Option(names = "--shared-bytes", description = "Bytes of the shared array (default 1048576).",
                defaultValue = "1048576")
        long sharedBytes;
        @Option(names = "--private-bytes", description = "Bytes of each private region (default 262144).",
                defaultValue = "262144")
        long privateBytes;
        @Option(names = "--lock-rate", description = "Probability per access of a critical section"
                + " (default 0.001).", defaultValue = "0.001")
        double lockRate;
        @Option(names = "--locks", description = "Distinct locks (default 4).", defaultValue = "4")
        int locks;
        @Option(names = "--barriers", description = "Barriers in the parallel phase (default 4).", defaultValue = "4")
        int barriers;
        @Option(names = "--stores", description = "Fraction of stores (default 0.33).", defaultValue = "0.33")
        double stores;
        @Option(names = "--branches", description = "Also write procedure-start and taken-branch records.")
        boolean branches;
        @Option(names = "--seed", description = "Random seed (default 1).", defaultValue = "1")
        long seed;
        @Option(names = "--codec", description = "none, zstd or lz4 (default none).", defaultValue = "none")
        String codec;

        @Override
        public Integer call() {
            ForkJoinGen.Params p = new ForkJoinGen.Params();
            p.threads = threads;
            p.instructions = instructions;
            if (serial != null && serial < 0) {
                throw new UserError("gen: serial " + serial + " out of range (0 or more)");
            }
            p.serial = serial == null ? -1 : serial;
            p.sharedFraction = shared;
            p.sharedBytes = sharedBytes;
            p.privateBytes = privateBytes;
            p.lockRate = lockRate;
            p.locks = locks;
            p.barriers = barriers;
            p.storeFraction = stores;
            p.branches = branches;
            p.seed = seed;
            p.codec = Codec.parse(codec);
            report(spec.commandLine().getOut(), ForkJoinGen.write(dir(out, name), name, p));
            return 0;
        }
    }

    /** TPC-style multi-process traces for -i p. */
    @Command(name = "processes", mixinStandardHelpOptions = true,
            description = "Processes whose slices are separated by ldcw and semop calls, with disk reads and writes.")
    static final class Processes implements Callable<Integer> {
        @Spec
        CommandSpec spec;
        @Option(names = {"-o", "--out"}, description = "Output folder (default: .).", defaultValue = ".")
        Path out;
        @Option(names = "--name", description = "Trace set name (default processes).", defaultValue = "processes")
        String name;
        @Option(names = "--processes", description = "Processes (default 8).", defaultValue = "8")
        int processes;
        @Option(names = "--slices", description = "Slices per process (default 100).", defaultValue = "100")
        int slices;
        @Option(names = "--slice-instructions", description = "Mean accesses per slice (default 2000).",
                defaultValue = "2000")
        long sliceInstructions;
        @Option(names = "--shared", description = "Fraction of accesses to the shared pool (default 0.2).",
                defaultValue = "0.2")
        double shared;
        @Option(names = "--pool-bytes", description = "Bytes of the shared buffer pool (default 4194304).",
                defaultValue = "4194304")
        long poolBytes;
        @Option(names = "--read-rate", description = "Probability of a disk read per slice (default 0.1).",
                defaultValue = "0.1")
        double readRate;
        @Option(names = "--write-rate", description = "Probability of a disk write per slice (default 0.02).",
                defaultValue = "0.02")
        double writeRate;
        @Option(names = "--io-bytes", description = "Bytes per disk read or write (default 65536).",
                defaultValue = "65536")
        long ioBytes;
        @Option(names = "--seed", description = "Random seed (default 1).", defaultValue = "1")
        long seed;
        @Option(names = "--codec", description = "none, zstd or lz4 (default none).", defaultValue = "none")
        String codec;

        @Override
        public Integer call() {
            ProcessGen.Params p = new ProcessGen.Params();
            p.processes = processes;
            p.slices = slices;
            p.sliceInstructions = sliceInstructions;
            p.sharedFraction = shared;
            p.poolBytes = poolBytes;
            p.readRate = readRate;
            p.writeRate = writeRate;
            p.ioBytes = ioBytes;
            p.seed = seed;
            p.codec = Codec.parse(codec);
            report(spec.commandLine().getOut(), ProcessGen.write(dir(out, name), name, p));
            return 0;
        }
    }
}
