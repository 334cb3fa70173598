package org.dsmscope.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.TreeSet;
import java.util.concurrent.Callable;
import org.dsmscope.cdat.config.CdatConfig;
import org.dsmscope.report.StudyManifest;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code dsmscope study} (seed 001 §5: each characteristic as a function of the number of processors): traces a
 * Java program once per thread count through {@link TraceCommand} with on-the-fly CIAT ({@code to_ciat}, and
 * {@code to_cdat} per configuration), or keeps the traces ({@code --keep-traces}) and runs {@code ciat} and
 * {@code cdat} on them; runs CIAT once more with the global access-age scope (seed 001 Figure 3 per thread and
 * global); takes Busy(1) from the one-thread run for the speedup; runs {@code tdat} on each CIAT event trace and on
 * each CDAT detailed traffic trace (seed 001 §5.5); and writes the manifest {@code study.json} and the report with every figure over the thread counts. A run
 * that fails is recorded and named in the report; a program that is not found or exits with a usage error (status 2)
 * stops the study at once.
 */
@Command(name = "study", mixinStandardHelpOptions = true,
        description = {"Trace a Java program once per thread count, analyse each run, and write the report of",
            "every figure over the thread counts. {threads} in the program's arguments is the thread count.",
            "Example: dsmscope study --threads 1,2,4 -o mm-study -- java -cp app.jar MatMul {threads} 128"})
public final class StudyCommand implements Callable<Integer> {
    /** The placeholder in the program's arguments replaced by each thread count. */
    static final String THREADS = "{threads}";

    @Option(names = "--threads", required = true, split = ",", paramLabel = "P,P,...",
            description = "The thread counts, e.g. 1,2,4,8,16.")
    List<Integer> threads;

    @Option(names = "--level", defaultValue = "2", paramLabel = "2|3", description = "Agent level (default 2).")
    int level;

    @Option(names = "--cdat", paramLabel = "CFG", arity = "1..*",
            description = "Also simulate each run on these CDAT configuration files.")
    List<Path> cdat = new ArrayList<>();

    @Option(names = "--busy1", paramLabel = "N",
            description = "Busy(1) for the speedup (default: the busy time of the one-thread run, if any).")
    Long busy1;

    @Option(names = "--keep-traces", description = "Write the traces and analyse them afterwards (and keep them).")
    boolean keepTraces;

    @Option(names = "--tdat-bins", defaultValue = "200", paramLabel = "N",
            description = "Bins of each run's communication rate over time (default 200).")
    int tdatBins;

    @Option(names = "--ciat-options", paramLabel = "OPTIONS",
            description = "More options of dsmscope ciat for every run, in one argument (e.g. \"--age-granularity 64\").")
    String ciatOptions;

    @Option(names = "--name", paramLabel = "NAME", description = "The program's name (default: its main class).")
    String name;

    @Option(names = {"-o", "--output"}, required = true, paramLabel = "DIR", description = "The study's folder.")
    Path out;

    @Option(names = "--progress", negatable = true,
            description = "Progress lines on standard error (default: when it is a terminal).")
    Boolean progress;

    @Parameters(paramLabel = "-- java -cp APP Main {threads} ARGS", arity = "0..*",
            description = "The program to run, after --; {threads} is replaced by each thread count.")
    List<String> program = new ArrayList<>();

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    private PrintWriter log;
    private boolean showProgress;

    @Override
    public Integer call() throws IOException, InterruptedException {
        TreeSet<Integer> counts = new TreeSet<>(threads);
        for (int p : counts) {
            if (p < 1 || p > 4096) {
                throw new UserError("option --threads: value " + p + " out of range (1..4096)");
            }
        }
        if (level < 1 || level > 3) {
            throw new UserError("option --level: value " + level + " out of range (1, 2 or 3)");
        }
        if (tdatBins < 1 || tdatBins > 100_000) {
            throw new UserError("option --tdat-bins: value " + tdatBins + " out of range (1..100000)");
        }
        if (program.isEmpty()) {
            throw new UserError("no program to study: give it after --, e.g. dsmscope study --threads 1,2 -o s -- java"
                    + " -cp app Main {threads}");
        }
        if (program.stream().noneMatch(a -> a.contains(THREADS))) {
            throw new UserError("the program's arguments must contain " + THREADS + " (replaced by each thread count)");
        }
        for (Path c : cdat) {
            if (!Files.isRegularFile(c)) {
                throw new UserError(c + ": no such configuration file");
            }
        }
        if (ciatOptions != null && !ciatOptions.isBlank()) {
            String bad = new OnTheFlyCiat().check("to_ciat", List.of(ciatOptions.trim().split("\\s+")));
            if (bad != null) {
                throw new UserError(bad.replace("CIAT_OPTIONS", "--ciat-options"));
            }
        }
        String prog = name != null ? name : mainClass(program);
        if (!prog.matches("[A-Za-z0-9_.-]+")) {
            throw new UserError("program name '" + prog + "': use letters, digits, '.', '_' or '-' (--name)");
        }
        Files.createDirectories(out);
        log = spec.commandLine().getErr();
        showProgress = progress != null ? progress : System.console() != null;
        List<StudyManifest.Run> runs = new ArrayList<>();
        Long b1 = busy1;
        int i = 0;
        for (int p : counts) {
            i++;
            StudyManifest.Run r = run(prog, p, i, counts.size(), b1);
            runs.add(r);
            if (b1 == null && p == 1 && r.ok()) {
                b1 = busyOf(out.resolve(r.results().get(0)));
            }
        }
        Path manifest = out.resolve("study.json");
        StudyManifest.write(manifest, prog, program, runs);
        Path report = out.resolve("report.html");
        ReportCommand.write(List.of(manifest), false, report, null);
        long failed = runs.stream().filter(r -> !r.ok()).count();
        System.out.println("study: " + runs.size() + " runs" + (failed > 0 ? ", " + failed + " failed (named in the"
                + " report)" : "") + "; wrote " + manifest + " and " + report + " (" + report.toAbsolutePath().toUri()
                + ")");
        return 0;
    }

    /** One thread count: traced and analysed; the results named relative to the study's folder. */
    private StudyManifest.Run run(String prog, int p, int index, int total, Long b1)
            throws IOException, InterruptedException {
        Path dir = out.resolve("t" + p);
        Files.createDirectories(dir);
        String base = dir.resolve(prog).toString();
        Path ciatJson = dir.resolve(prog + ".ciat.json");
        List<String> cmd = new ArrayList<>();
        for (String a : program) {
            cmd.add(a.replace(THREADS, Integer.toString(p)));
        }
        String step = "run " + index + "/" + total + " (" + p + (p == 1 ? " thread" : " threads") + ")";
        List<String> results = new ArrayList<>();
        List<String> ciatOpts = new ArrayList<>(List.of("-ciat_events", "--json", ciatJson.toString()));
        if (b1 != null) {
            ciatOpts.addAll(List.of("--busy1", Long.toString(b1)));
        }
        if (ciatOptions != null && !ciatOptions.isBlank()) {
            ciatOpts.addAll(List.of(ciatOptions.trim().split("\\s+")));
        }
        boolean ageRun = secondAgeScope() != null;
        String ageResult = null;
        if (keepTraces) {
            progress(step, "tracing");
            int st = trace(List.of("--type", "normal", "-o", base), cmd, p);
            if (st != 0) {
                return failed(p, "the program exited with status " + st, results);
            }
            String set = traceSet(dir, prog);
            if (set == null) {
                return failed(p, "no trace files written", results);
            }
            // the other age scope's run first: the main run then writes the report and memory files of the set
            if (ageRun && (ageResult = ageRun(step, dir, prog, set, null, p)) == null) {
                return failed(p, "dsmscope ciat " + set + " --age-scope " + secondAgeScope() + " failed (its message"
                        + " is above)", results);
            }
            progress(step, "CIAT");
            List<String> args = new ArrayList<>(List.of("ciat", set));
            args.addAll(ciatOpts);
            if (Main.commandLine().execute(args.toArray(new String[0])) != 0 || !Files.isRegularFile(ciatJson)) {
                return failed(p, "dsmscope ciat " + set + " failed (its message is above)", results);
            }
        } else {
            progress(step, "tracing with on-the-fly CIAT");
            int st = trace(List.of("--type", "to_ciat", "-o", base, "--ciat-options", String.join(" ", ciatOpts)),
                    cmd, p);
            if (st != 0 || !Files.isRegularFile(ciatJson)) {
                return failed(p, st != 0 ? "the program exited with status " + st : "no CIAT result written", results);
            }
        }
        results.add(out.relativize(ciatJson).toString());
        if (ageRun && !keepTraces && (ageResult = ageRun(step, dir, prog, null, cmd, p)) == null) {
            return failed(p, "the run of the " + secondAgeScope() + " access-age scope wrote no CIAT result", results);
        }
        if (ageResult != null) {
            results.add(ageResult);
        }
        JsonNode ciat = new ObjectMapper().readTree(ciatJson.toFile());
        long ciatEnd = ciat.path("aggregate").path("endClock").asLong();
        for (Path cfg : cdat) {
            String cfgName = cfg.getFileName().toString().replaceAll("\\.cfg$", "");
            Path cjson = dir.resolve(prog + "." + cfgName + ".cdat.json");
            Path traffic = trafficConfig(cfg, cfgName);
            progress(step, "CDAT on " + cfg.getFileName());
            boolean ok;
            Path detailed = null;
            if (keepTraces) {
                String set = traceSet(dir, prog);
                ok = Main.commandLine().execute("cdat", set, traffic.toString(), "--json", cjson.toString()) == 0;
                // the set's detailed trace, named for its configuration (the next one would overwrite it)
                Path written = Paths.get(set + ".cdat_detailed");
                if (ok && Files.isRegularFile(written)) {
                    detailed = dir.resolve(prog + "." + cfgName + "." + set.substring(set.lastIndexOf('.') + 1)
                            + ".cdat_detailed");
                    Files.move(written, detailed, StandardCopyOption.REPLACE_EXISTING);
                }
            } else {
                ok = trace(List.of("--type", "to_cdat", "-o", dir.resolve(prog + "." + cfgName).toString(), "--config",
                        traffic.toString(), "--cdat-options", "--json " + cjson), cmd, p) == 0;
                detailed = find(dir, prog + "." + cfgName + ".*.cdat_detailed");
            }
            if (!ok || !Files.isRegularFile(cjson)) {
                return failed(p, "CDAT on " + cfg + " failed (its message is above)", results);
            }
            results.add(out.relativize(cjson).toString());
            if (detailed != null) {
                progress(step, "TDAT on the CDAT traffic of " + cfg.getFileName());
                JsonNode cj = new ObjectMapper().readTree(cjson.toFile());
                long end = 0;
                for (JsonNode ph : cj.path("phases")) {
                    end = Math.max(end, ph.path("endClock").asLong());
                }
                String why = tdat(detailed, dir, prog + "." + cfgName, end > 0 ? end : ciatEnd,
                        Math.max(1, cj.path("replayProcessors").asInt()), results);
                if (why != null) {
                    return failed(p, why, results);
                }
            }
        }
        Path events = eventTrace(dir, prog);
        if (events != null) {
            progress(step, "TDAT");
            String why = tdat(events, dir, prog, ciatEnd, Math.max(1, ciat.path("processors").asInt()), results);
            if (why != null) {
                return failed(p, why, results);
            }
        }
        progress(step, "done");
        return new StudyManifest.Run(p, true, null, results);
    }

    /**
     * TDAT on one event or traffic trace, {@code tdatBins} bins over the run's end clock: {@code BASE.tdat.json},
     * {@code BASE.tdat.time} (added to the results) and the text report {@code BASE.tdat.freq}; the trace is then
     * deleted unless {@code --keep-traces}. Returns null, or why it failed.
     */
    private String tdat(Path trace, Path dir, String base, long end, int processors, List<String> results)
            throws IOException {
        long bin = Math.max(1, (end + tdatBins - 1) / tdatBins);
        Path time = dir.resolve(base + ".tdat.time");
        Path tjson = dir.resolve(base + ".tdat.json");
        int st;
        // TDAT's text report (the seed's event.freq) goes to a file beside its JSON, not onto the terminal
        try (PrintWriter freq = new PrintWriter(Files.newBufferedWriter(dir.resolve(base + ".tdat.freq")))) {
            CommandLine tdat = Main.commandLine();
            tdat.setOut(freq);
            st = tdat.execute("tdat", trace.toString(), time.toString(), Long.toString(bin),
                    Integer.toString(processors), "--json", tjson.toString());
        }
        if (st != 0) {
            return "dsmscope tdat " + trace + " failed (its message is above)";
        }
        results.add(out.relativize(tjson).toString());
        results.add(out.relativize(time).toString());
        if (!keepTraces) {
            Files.deleteIfExists(trace);
        }
        return null;
    }

    /**
     * The access-age scope of the extra CIAT run ({@code global}: the seed's Figure 3 per thread and global in one
     * study), or null when {@code --ciat-options} chooses a scope itself.
     */
    private String secondAgeScope() {
        if (ciatOptions != null && List.of(ciatOptions.trim().split("\\s+")).contains("--age-scope")) {
            return null;
        }
        return "global";
    }

    /**
     * The CIAT run of the second access-age scope ({@code NAME.global.ciat.json}): on the kept trace set {@code set},
     * else one more traced run of {@code cmd} with on-the-fly CIAT. Its other outputs are those of any CIAT run; the
     * report draws only its access age. Returns its result relative to the study's folder, or null if none.
     */
    private String ageRun(String step, Path dir, String prog, String set, List<String> cmd, int p)
            throws IOException, InterruptedException {
        String scope = secondAgeScope();
        Path json = dir.resolve(prog + "." + scope + ".ciat.json");
        List<String> opts = new ArrayList<>(List.of("--json", json.toString()));
        if (ciatOptions != null && !ciatOptions.isBlank()) {
            opts.addAll(List.of(ciatOptions.trim().split("\\s+")));
        }
        opts.addAll(List.of("--age-scope", scope));
        progress(step, "CIAT, " + scope + " access-age scope");
        if (set != null) {
            List<String> args = new ArrayList<>(List.of("ciat", set));
            args.addAll(opts);
            if (Main.commandLine().execute(args.toArray(new String[0])) != 0) {
                return null;
            }
        } else if (trace(List.of("--type", "to_ciat", "-o", dir.resolve(prog + "." + scope).toString(),
                "--ciat-options", String.join(" ", opts)), cmd, p) != 0) {
            return null;
        }
        return Files.isRegularFile(json) ? out.relativize(json).toString() : null;
    }

    /**
     * The configuration CDAT runs with: {@code cfg} itself when it writes the detailed traffic trace, else a copy
     * that does ({@code DIR/NAME.traffic.cfg}), for TDAT (seed 001 §5.5 on CDAT's transactions).
     */
    private Path trafficConfig(Path cfg, String cfgName) throws IOException {
        CdatConfig c;
        try {
            c = CdatConfig.parse(cfg);
        } catch (RuntimeException e) {
            return cfg; // CDAT itself names what is wrong with the file
        }
        if (c.detailedTrace) {
            return cfg;
        }
        Path copy = out.resolve(cfgName + ".traffic.cfg");
        if (!Files.isRegularFile(copy)) {
            Files.writeString(copy, c.toBuilder().detailedTrace(true).build().toText());
        }
        return copy;
    }

    private StudyManifest.Run failed(int p, String why, List<String> results) {
        log.println("study: the run with " + p + (p == 1 ? " thread" : " threads") + " failed: " + why
                + "; going on with the others");
        log.flush();
        return new StudyManifest.Run(p, false, why, results);
    }

    /**
     * Traces one run through {@code dsmscope trace}; a usage error of the command (the program not found) or of the
     * program (exit status 2) stops the study.
     */
    private int trace(List<String> opts, List<String> cmd, int p) throws IOException, InterruptedException {
        List<String> args = new ArrayList<>(List.of("--level", Integer.toString(level)));
        args.addAll(opts);
        args.add("--");
        args.addAll(cmd);
        TraceCommand t = new TraceCommand();
        new CommandLine(t).parseArgs(args.toArray(new String[0]));
        int st = t.call();
        if (st == Main.USAGE) {
            throw new UserError("study: the program exited with status 2 (a usage error) with " + p
                    + (p == 1 ? " thread" : " threads") + ": " + String.join(" ", cmd) + "; the study stops");
        }
        return st;
    }

    private void progress(String step, String what) {
        if (showProgress) {
            log.println("study: " + step + ": " + what);
            log.flush();
        }
    }

    /** The trace set {@code DIR/NAME.p} the agent wrote (its thread count is the run's), or null. */
    private static String traceSet(Path dir, String prog) throws IOException {
        try (DirectoryStream<Path> ds = Files.newDirectoryStream(dir, prog + ".*.0")) {
            for (Path f : ds) {
                String n = f.getFileName().toString();
                return dir.resolve(n.substring(0, n.length() - 2)).toString();
            }
        }
        return null;
    }

    /** The CIAT event trace {@code NAME.p.ciat_events} of a run, or null. */
    private static Path eventTrace(Path dir, String prog) throws IOException {
        return find(dir, prog + ".[0-9]*.ciat_events");
    }

    /** The first file of {@code dir} matching the glob, or null. */
    private static Path find(Path dir, String glob) throws IOException {
        try (DirectoryStream<Path> ds = Files.newDirectoryStream(dir, glob)) {
            for (Path f : ds) {
                return f;
            }
        }
        return null;
    }

    /** Busy(1): the busy time summed over the threads of a one-thread run's CIAT result. */
    static long busyOf(Path ciatJson) throws IOException {
        long b = 0;
        for (JsonNode n : new ObjectMapper().readTree(ciatJson.toFile()).path("aggregate").path("concurrency")
                .path("busy")) {
            b += n.asLong();
        }
        return b;
    }

    /** The main class's simple name in {@code java [options] Main args}, else "program". */
    static String mainClass(List<String> cmd) {
        for (int i = 1; i < cmd.size(); i++) {
            String a = cmd.get(i);
            if (a.equals("-cp") || a.equals("-classpath") || a.equals("--class-path")) {
                i++;
            } else if (a.equals("-jar") && i + 1 < cmd.size()) {
                return cmd.get(i + 1).replaceAll(".*/", "").replaceAll("\\.jar$", "");
            } else if (!a.startsWith("-")) {
                return a.substring(a.lastIndexOf('.') + 1).toLowerCase(Locale.ROOT);
            }
        }
        return "program";
    }
}
