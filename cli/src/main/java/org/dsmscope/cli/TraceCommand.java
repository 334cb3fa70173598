package org.dsmscope.cli;

import java.io.File;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.jar.JarFile;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code dsmscope trace}: runs a Java program under the dsmscope agent (SMAIT for the JVM, seed 000 §2, SPEC §3)
 * and passes its exit status through. The agent writes {@code NAME.p.t} per thread and lists them as seed 000
 * Figure 3 does.
 */
@Command(name = "trace", mixinStandardHelpOptions = true,
        description = {"Run a Java program under the dsmscope agent and write one SMAIT trace file per thread.",
            "Example: dsmscope trace --level 2 -o mm -- java -cp app.jar MatMul 4 256"})
public final class TraceCommand implements Callable<Integer> {
    @Option(names = "--level", defaultValue = "1", paramLabel = "1|2|3",
            description = "1: call records; 2: + field and array accesses; 3: + procedures and taken branches.")
    String level;

    @Option(names = "--type", defaultValue = "normal", paramLabel = "TYPE",
            description = "normal, compressed, suppressed, to_ciat or to_cdat (seed 000 §2).")
    String type;

    @Option(names = {"-o", "--output"}, defaultValue = "trace", paramLabel = "NAME",
            description = "Trace name: files NAME.p.t (p threads), NAME.p.symbols, NAME.p.datamap.")
    String name;

    @Option(names = "--codec", defaultValue = "zstd", paramLabel = "zstd|lz4", description = "Codec of compressed traces.")
    String codec;

    @Option(names = "--ciat-options", paramLabel = "OPTIONS",
            description = "to_ciat: the options of dsmscope ciat, in one argument (e.g. \"-p --json r.json\").")
    String ciatOptions;

    @Option(names = "--config", paramLabel = "cfg_file",
            description = "to_cdat: the configuration file of the simulated machine (CONFIGURATION_FILE_NAME).")
    Path config;

    @Option(names = "--cdat-options", paramLabel = "OPTIONS",
            description = "to_cdat: the options of dsmscope cdat, in one argument (e.g. \"--json r.json\").")
    String cdatOptions;

    @Option(names = "--threads", paramLabel = "P",
            description = "to_ciat, to_cdat: the number of threads the run traces (main included); then the analysis runs while"
                    + " the program runs (without it, at the end of the run).")
    Integer threads;

    @Option(names = "--trace-jdk", description = "Level 2: also trace the memory accesses of the JDK's java.util and"
            + " java.util.concurrent classes (a queue's slots, a map's table, a future's result).")
    boolean traceJdk;

    @Option(names = "--agent", paramLabel = "JAR", description = "The agent jar (default: found beside dsmscope).")
    Path agent;

    @Parameters(paramLabel = "-- java [JVM options] -cp APP Main ARGS", arity = "0..*",
            description = "The program to run, after --.")
    List<String> program = new ArrayList<>();

    /** The to_cdat options: a configuration that parses, options that {@code dsmscope cdat} takes. */
    private void checkCdat(String t) {
        if (!t.equals("to_cdat")) {
            if (config != null || cdatOptions != null) {
                throw new UserError((config != null ? "--config" : "--cdat-options") + " goes with --type to_cdat");
            }
            return;
        }
        if (config == null) {
            throw new UserError("--type to_cdat simulates the machine of a configuration file: give --config FILE");
        }
        // the configuration's own mistakes name the file, not --cdat-options
        org.dsmscope.cdat.config.CdatConfig.parse(config);
        List<String> opts = new ArrayList<>();
        if (cdatOptions != null && !cdatOptions.isBlank()) {
            opts.addAll(List.of(cdatOptions.trim().split("\\s+")));
        }
        opts.add("--config");
        opts.add(config.toString());
        String bad = new OnTheFlyCdat().check("to_cdat", opts);
        if (bad != null) {
            throw new UserError(bad.replace("CDAT_OPTIONS", "--cdat-options"));
        }
        analysis = new OnTheFlyCdat().parse(opts);
    }

    /** The on-the-fly analysis's options, parsed (to_ciat with --ciat-options, to_cdat), else null. */
    private OnTheFlySink.Parsed analysis;

    /**
     * The files of the traced program's class path that exist ({@code -cp}, {@code -classpath},
     * {@code --class-path} entries and the {@code -jar} file): the run reads them.
     */
    static List<Path> programFiles(List<String> program) {
        List<Path> files = new ArrayList<>();
        for (int i = 1; i + 1 < program.size(); i++) {
            String a = program.get(i);
            if (a.equals("-cp") || a.equals("-classpath") || a.equals("--class-path")) {
                for (String e : program.get(i + 1).split(java.io.File.pathSeparator)) {
                    if (!e.isEmpty() && Files.isRegularFile(Paths.get(e))) {
                        files.add(Paths.get(e));
                    }
                }
                i++;
            } else if (a.equals("-jar")) {
                files.add(Paths.get(program.get(i + 1)));
                break;
            } else if (!a.startsWith("-")) {
                break; // the main class: what follows are the program's own arguments
            }
        }
        return files;
    }

    @Override
    public Integer call() throws IOException, InterruptedException {
        if (!level.matches("[123]")) {
            throw new UserError("unknown level '" + level + "' (expected 1, 2 or 3)");
        }
        String t = type.toLowerCase(Locale.ROOT);
        switch (t) {
            case "normal": case "compressed": case "suppressed": case "to_ciat": case "to_cdat":
                break;
            default:
                throw new UserError("unknown trace type '" + type
                        + "' (expected normal, compressed, suppressed, to_ciat or to_cdat)");
        }
        boolean onTheFly = t.equals("to_ciat") || t.equals("to_cdat");
        if (threads != null && (!onTheFly || threads < 1 || threads > 4096)) {
            throw new UserError(onTheFly ? "--threads " + threads + ": expected a thread count 1..4096"
                    : "--threads goes with --type to_ciat or to_cdat");
        }
        checkCdat(t);
        if (ciatOptions != null && !t.equals("to_ciat")) {
            throw new UserError("--ciat-options goes with --type to_ciat");
        }
        if (ciatOptions != null && !ciatOptions.isBlank()) {
            List<String> opts = List.of(ciatOptions.trim().split("\\s+"));
            String bad = new OnTheFlyCiat().check("to_ciat", opts);
            if (bad != null) {
                throw new UserError(bad.replace("CIAT_OPTIONS", "--ciat-options"));
            }
            analysis = new OnTheFlyCiat().parse(opts);
        }
        if (traceJdk && !level.equals("2")) {
            throw new UserError("--trace-jdk traces the JDK's memory accesses: it needs --level 2 (was " + level + ")");
        }
        if (!codec.equalsIgnoreCase("zstd") && !codec.equalsIgnoreCase("lz4")) {
            throw new UserError("unknown codec '" + codec + "' (expected zstd or lz4)");
        }
        if (program.isEmpty()) {
            throw new UserError("no program to trace: give it after --, e.g. dsmscope trace -o t -- java -cp app Main");
        }
        String java = program.get(0);
        String base = Paths.get(java).getFileName().toString();
        if (!base.equals("java") && !base.equals("java.exe")) {
            throw new UserError("the program must start with java (or a path to it), not '" + java + "'");
        }
        if (name.contains(",")) {
            throw new UserError("trace name '" + name + "' must not contain a comma");
        }
        Path out = Paths.get(name).toAbsolutePath();
        Path dir = out.getParent();
        if (!t.equals("suppressed") && (dir == null || !Files.isDirectory(dir))) {
            throw new UserError("cannot write traces " + name + ".*: no such directory " + dir);
        }
        String refused = t.equals("suppressed") ? null : RunFiles.refusesNewFiles(dir);
        if (refused != null) {
            throw new UserError("cannot write traces " + name + ".*: directory " + dir + " " + refused);
        }
        checkMainClass(program);
        Path jar = agent != null ? agent : findAgentJar();
        if (jar == null || !Files.isRegularFile(jar)) {
            throw new UserError("cannot find the agent jar dsmscope-agent.jar"
                    + (jar == null ? "" : " at " + jar) + "; build it with mvn package or give --agent JAR");
        }
        if (!t.equals("suppressed")) {
            // every file the run writes is NAME.p.*: none of them may be a file the run reads
            List<Path> inputs = new ArrayList<>(List.of(jar));
            if (config != null) {
                inputs.add(config);
            }
            inputs.addAll(programFiles(program));
            RunFiles.checkSetName(inputs, name, true);
            if (analysis != null) {
                // the outputs named in --ciat-options / --cdat-options, before the program runs
                List<Path> in = new ArrayList<>(inputs);
                in.addAll(analysis.inputs());
                RunFiles.check(in, analysis.outputs());
                RunFiles.checkOutsideSet(analysis.outputs(), name);
            }
        }
        List<String> cmd = new ArrayList<>();
        cmd.add(java);
        // The agent's hooks must be visible to JDK classes: on the boot class path from the start, HotSpot keeps
        // class data sharing for JDK classes and prints nothing (appended at run time by the agent, it warns that
        // sharing is limited to boot classes on every run).
        cmd.add("-Xbootclasspath/a:" + jar.toAbsolutePath());
        Path self = ownJar();
        if (onTheFly && self != null) {
            cmd.add("-Ddsmscope.jar=" + self);
        }
        Path status = null;
        if (onTheFly) {
            // the agent writes a failed analysis's message there (the program's exit status stays its own)
            status = Files.createTempFile("dsmscope-analysis-", ".status");
            Files.delete(status);
            cmd.add("-Ddsmscope.analysis.status=" + status);
        }
        cmd.add("-javaagent:" + jar.toAbsolutePath() + "=level=" + level + ",type=" + t + ",name=" + out
                + ",codec=" + codec.toLowerCase(Locale.ROOT) + (threads == null ? "" : ",threads=" + threads)
                + (traceJdk ? ",jdk=true" : ""));
        cmd.addAll(program.subList(1, program.size()));
        ProcessBuilder pb = new ProcessBuilder(cmd).inheritIO();
        if (ciatOptions != null) {
            pb.environment().put("CIAT_OPTIONS", ciatOptions);
        }
        if (config != null) {
            pb.environment().put("CONFIGURATION_FILE_NAME", config.toAbsolutePath().toString());
            pb.environment().put("CDAT_OPTIONS", cdatOptions == null ? "" : cdatOptions);
        }
        Process p;
        try {
            p = pb.start();
        } catch (IOException e) {
            throw new UserError("cannot run " + java + ": " + e.getMessage());
        }
        int exit = p.waitFor();
        if (t.equals("normal") || t.equals("compressed")) {
            String note = sizeNote(out, t.equals("compressed"), Integer.parseInt(level));
            if (note != null) {
                System.err.println(note); // after the agent's list of files; standard output is the program's
                System.err.flush();
            }
        }
        String failed = analysisFailure(status);
        if (failed != null) {
            throw new UserError("the on-the-fly analysis failed (the traced program exited with status " + exit
                    + "): " + failed);
        }
        if (exit != 0) {
            System.err.println("dsmscope: the traced program exited with status " + exit
                    + "; the traces written are kept");
        }
        return exit;
    }

    /** The message the agent left in {@code status} for a failed on-the-fly analysis (null: none); deletes it. */
    private static String analysisFailure(Path status) throws IOException {
        if (status == null || !Files.exists(status)) {
            return null;
        }
        String msg = Files.readString(status).strip();
        Files.deleteIfExists(status);
        return msg.isEmpty() ? null : msg;
    }

    /** Trace sets of normal type at least this large get the suggestion to compress. */
    static final long LARGE = 256L << 20;

    /**
     * The line that tells the user how large the trace set {@code out}.P.T is, and with a large normal trace at level
     * 2 or 3 (8 bytes per memory access) that {@code --type compressed} writes about a tenth; null if no file.
     */
    static String sizeNote(Path out, boolean compressed, int level) throws IOException {
        String prefix = out.getFileName().toString() + ".";
        long bytes = 0;
        int files = 0;
        try (java.util.stream.Stream<Path> s = Files.list(out.getParent())) {
            for (Path f : (Iterable<Path>) s::iterator) {
                String n = f.getFileName().toString();
                if (n.startsWith(prefix) && n.substring(prefix.length()).matches("\\d+\\.\\d+")
                        && Files.isRegularFile(f)) {
                    bytes += Files.size(f);
                    files++;
                }
            }
        }
        if (files == 0) {
            return null;
        }
        String line = String.format(Locale.ROOT, "trace: %d trace file%s, %s", files, files == 1 ? "" : "s",
                megabytes(bytes));
        if (!compressed && level >= 2 && bytes >= LARGE) {
            line += " (8 bytes per memory access): --type compressed writes about 0.4 to 0.7 bytes per access,"
                    + " and every command reads it";
        }
        return line;
    }

    private static String megabytes(long bytes) {
        return bytes >= 1_000_000_000L ? String.format(Locale.ROOT, "%.1f GB", bytes / 1e9)
                : String.format(Locale.ROOT, "%.1f MB", bytes / 1e6);
    }

    /** When the command names {@code -cp DIRS Main}, checks that Main is on that class path. */
    private static void checkMainClass(List<String> args) {
        String cp = null;
        String main = null;
        for (int i = 1; i < args.size(); i++) {
            String a = args.get(i);
            if ((a.equals("-cp") || a.equals("-classpath") || a.equals("--class-path")) && i + 1 < args.size()) {
                cp = args.get(++i);
            } else if (a.equals("-jar") || a.equals("-m") || a.equals("--module") || a.startsWith("@")) {
                return;
            } else if (a.equals("-p") || a.equals("--module-path") || a.equals("--add-opens")
                    || a.equals("--add-exports") || a.equals("--add-modules")) {
                i++;
            } else if (!a.startsWith("-")) {
                main = a;
                break;
            }
        }
        if (main == null) {
            throw new UserError("no main class in the command: " + String.join(" ", args));
        }
        if (cp == null || main.endsWith(".java")) {
            return;
        }
        String rel = main.replace('.', '/') + ".class";
        for (String e : cp.split(File.pathSeparator)) {
            Path p = Paths.get(e.isEmpty() ? "." : e);
            if (e.endsWith("*")) {
                return;
            }
            if (Files.isDirectory(p) && Files.isRegularFile(p.resolve(rel))) {
                return;
            }
            if (Files.isRegularFile(p)) {
                try (JarFile j = new JarFile(p.toFile())) {
                    if (j.getEntry(rel) != null) {
                        return;
                    }
                } catch (IOException ex) {
                    // not a jar: keep looking
                }
            }
        }
        throw new UserError("main class " + main + " not found on class path " + cp);
    }

    /** The dsmscope jar this command runs from (null when run from classes). */
    private static Path ownJar() {
        try {
            Path here = Paths.get(Main.class.getProtectionDomain().getCodeSource().getLocation().toURI());
            return Files.isRegularFile(here) && here.getFileName().toString().equals("dsmscope.jar")
                    ? here.toAbsolutePath() : null;
        } catch (URISyntaxException | RuntimeException e) {
            return null;
        }
    }

    /** The agent jar: $DSMSCOPE_AGENT_JAR, -Ddsmscope.home, beside the dsmscope jar, or agent/target. */
    static Path findAgentJar() {
        List<Path> candidates = new ArrayList<>();
        String env = System.getenv("DSMSCOPE_AGENT_JAR");
        if (env != null && !env.isEmpty()) {
            return Paths.get(env);
        }
        String home = System.getProperty("dsmscope.home");
        if (home != null) {
            candidates.add(Paths.get(home, "agent", "target", "dsmscope-agent.jar"));
            candidates.add(Paths.get(home, "lib", "dsmscope-agent.jar"));
        }
        try {
            Path here = Paths.get(Main.class.getProtectionDomain().getCodeSource().getLocation().toURI());
            Path d = Files.isDirectory(here) ? here : here.getParent();
            candidates.add(d.resolve("dsmscope-agent.jar"));
            if (d.getParent() != null && d.getParent().getParent() != null) {
                candidates.add(d.getParent().getParent().resolve("agent/target/dsmscope-agent.jar"));
            }
        } catch (URISyntaxException | RuntimeException e) {
            // fall through to the working directory
        }
        Path cwd = Paths.get("").toAbsolutePath();
        candidates.add(cwd.resolve("agent/target/dsmscope-agent.jar"));
        if (cwd.getParent() != null) {
            candidates.add(cwd.getParent().resolve("agent/target/dsmscope-agent.jar"));
        }
        for (Path c : candidates) {
            if (Files.isRegularFile(c)) {
                return c;
            }
        }
        return null;
    }
}
