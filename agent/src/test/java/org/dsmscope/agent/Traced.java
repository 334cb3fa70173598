package org.dsmscope.agent;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.dsmscope.trace.RecordKind;
import org.dsmscope.trace.TraceReader;

/** Runs a test program in a child JVM under the agent jar and reads back what it wrote. */
final class Traced {
    /** One record as the tests look at it. */
    static final class Rec {
        int kind;
        int memType;
        long address;
        long source;
        int callType;
        long start;
        long end;
        long[] args = new long[5];

        boolean isCall(int type) {
            return kind == RecordKind.CALL && callType == type;
        }

        @Override
        public String toString() {
            if (kind == RecordKind.CALL) {
                return "call " + Integer.toHexString(callType) + " " + args[1] + " " + args[2] + " " + args[3];
            }
            return RecordKind.name(kind) + " " + Integer.toHexString(memType) + " 0x" + Long.toHexString(address)
                    + " src 0x" + Long.toHexString(source);
        }
    }

    final int exit;
    final String out;
    final String err;
    final Path dir;
    final String name;

    private Traced(int exit, String out, String err, Path dir, String name) {
        this.exit = exit;
        this.out = out;
        this.err = err;
        this.dir = dir;
        this.name = name;
    }

    static Path agentJar() {
        Path jar = Paths.get("target", "dsmscope-agent.jar").toAbsolutePath();
        if (!Files.isRegularFile(jar)) {
            throw new IllegalStateException("build the agent jar first: mvn package (runs the shade step)");
        }
        return jar;
    }

    /** The test class path without the agent's own classes (the agent jar brings them, relocated). */
    static String childClassPath() {
        String cp = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
        StringBuilder sb = new StringBuilder();
        for (String e : cp.split(File.pathSeparator)) {
            if (e.replace('\\', '/').endsWith("agent/target/classes")) {
                continue;
            }
            if (sb.length() > 0) {
                sb.append(File.pathSeparator);
            }
            sb.append(e);
        }
        return sb.toString();
    }

    /** Runs {@code main} with {@code agentArgs} (name= is added) in {@code dir}. */
    static Traced run(Path dir, String agentArgs, Class<?> main, String... args) throws IOException, InterruptedException {
        String name = dir.resolve("tr").toString();
        return run(dir, agentArgs + ",name=" + name, java.util.Map.of(), name, main, args);
    }

    /** Runs {@code main} with exactly {@code agentArgs} and extra environment variables. */
    static Traced run(Path dir, String agentArgs, java.util.Map<String, String> env, String name, Class<?> main,
            String... args) throws IOException, InterruptedException {
        return run(List.of(), List.of(), dir, agentArgs, env, name, main, args);
    }

    /** {@link #run(Path, String, Class, String...)} with extra JVM options. */
    static Traced runWithJvmOptions(List<String> jvmOptions, Path dir, String agentArgs, Class<?> main,
            String... args) throws IOException, InterruptedException {
        String name = dir.resolve("tr").toString();
        return run(List.of(), jvmOptions, dir, agentArgs + ",name=" + name, java.util.Map.of(), name, main, args);
    }

    /**
     * {@link #run(Path, String, Class, String...)} in a process that may open at most {@code files} files at once
     * ({@code ulimit -n}).
     */
    static Traced runWithOpenFileLimit(int files, Path dir, String agentArgs, Class<?> main, String... args)
            throws IOException, InterruptedException {
        String name = dir.resolve("tr").toString();
        return run(List.of("bash", "-c", "ulimit -n " + files + " && exec \"$0\" \"$@\""), List.of(), dir,
                agentArgs + ",name=" + name, java.util.Map.of(), name, main, args);
    }

    private static Traced run(List<String> prefix, List<String> jvmOptions, Path dir, String agentArgs,
            java.util.Map<String, String> env, String name, Class<?> main, String... args)
            throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(prefix);
        cmd.add(Paths.get(System.getProperty("java.home"), "bin", "java").toString());
        cmd.add("-Xshare:off");
        cmd.addAll(jvmOptions);
        cmd.add("-Ddsmscope.home=" + dir); // no dsmscope.jar there: to_ciat has no analysis sink
        cmd.add("-javaagent:" + agentJar() + (agentArgs.isEmpty() ? "" : "=" + agentArgs));
        cmd.add("-cp");
        cmd.add(childClassPath());
        cmd.add(main.getName());
        for (String a : args) {
            cmd.add(a);
        }
        ProcessBuilder pb = new ProcessBuilder(cmd);
        pb.environment().remove("TRACE_FILE_TYPE");
        pb.environment().remove("TRACE_FILE_NAME");
        pb.environment().putAll(env);
        File o = dir.resolve("stdout.txt").toFile();
        File e = dir.resolve("stderr.txt").toFile();
        pb.redirectOutput(o).redirectError(e);
        Process p = pb.start();
        if (!p.waitFor(120, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError("traced program hung: " + main.getName());
        }
        return new Traced(p.exitValue(), Files.readString(o.toPath(), StandardCharsets.UTF_8),
                Files.readString(e.toPath(), StandardCharsets.UTF_8), dir, name);
    }

    /** Runs {@code main} without the agent; returns its standard output. */
    static String plain(Path dir, Class<?> main, String... args) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>();
        cmd.add(Paths.get(System.getProperty("java.home"), "bin", "java").toString());
        cmd.add("-cp");
        cmd.add(childClassPath());
        cmd.add(main.getName());
        for (String a : args) {
            cmd.add(a);
        }
        File o = dir.resolve("plain.txt").toFile();
        Process p = new ProcessBuilder(cmd).redirectOutput(o).redirectError(ProcessBuilder.Redirect.DISCARD).start();
        if (!p.waitFor(120, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError("program hung: " + main.getName());
        }
        return Files.readString(o.toPath(), StandardCharsets.UTF_8);
    }

    /** Number of thread files NAME.p.t written (p from the file names). */
    int threads() throws IOException {
        try (var s = Files.list(dir)) {
            String base = Paths.get(name).getFileName().toString();
            return (int) s.filter(f -> f.getFileName().toString().matches(java.util.regex.Pattern.quote(base)
                    + "\\.\\d+\\.\\d+")).count();
        }
    }

    /** The records of thread {@code t}. */
    List<Rec> records(int t) throws IOException {
        int p = threads();
        List<Rec> l = new ArrayList<>();
        try (TraceReader r = TraceReader.open(Paths.get(name + "." + p + "." + t))) {
            for (int k = r.next(); k != RecordKind.EOF; k = r.next()) {
                Rec x = new Rec();
                x.kind = k;
                if (k == RecordKind.CALL) {
                    x.callType = r.callType();
                    x.start = r.startTime();
                    x.end = r.endTime();
                    for (int i = 1; i <= 4; i++) {
                        x.args[i] = r.arg(i);
                    }
                } else if (k == RecordKind.MEMORY) {
                    x.memType = r.memType();
                    x.address = r.address();
                } else {
                    x.address = r.address();
                    x.source = r.source();
                }
                l.add(x);
            }
        }
        return l;
    }

    /**
     * Which thread released each object's number in {@code all} ("address/number" → thread); throws if a number is
     * released twice (numbers are unique per object).
     */
    static java.util.Map<String, Integer> releasedBy(List<List<Rec>> all) {
        java.util.Map<String, Integer> by = new java.util.HashMap<>();
        for (int th = 0; th < all.size(); th++) {
            for (Rec r : all.get(th)) {
                if (r.isCall(org.dsmscope.trace.CallType.SYNC_RELEASE)
                        && by.put(r.args[1] + "/" + r.args[2], th) != null) {
                    throw new AssertionError("numbers are unique: " + r + " released twice");
                }
            }
        }
        return by;
    }

    /** All records of all threads. */
    List<List<Rec>> all() throws IOException {
        List<List<Rec>> l = new ArrayList<>();
        for (int t = 0; t < threads(); t++) {
            l.add(records(t));
        }
        return l;
    }
}
