package org.dsmscope.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code bin/dsmscope}, the launcher, with stand-ins for Maven and Java: its first build says what it is doing and
 * why it takes a while, never shows raw escape codes, and passes its own path on so echoed commands can be pasted.
 */
class LauncherScriptTest {
    private static final String ESC = "\u001b";

    @TempDir
    Path dir;

    /**
     * Copies the launcher into a fresh root with a fake mvn (exit status {@code mvnStatus}), java and nproc (2
     * processors) on PATH.
     */
    private String[] launch(int mvnStatus) throws Exception {
        return launch(mvnStatus, null, 2);
    }

    /** As {@link #launch(int)}, with $DSMSCOPE_JAVA_OPTS set to {@code javaOpts} unless it is null. */
    private String[] launch(int mvnStatus, String javaOpts) throws Exception {
        return launch(mvnStatus, javaOpts, 2);
    }

    /** As {@link #launch(int, String)}, on a machine of {@code processors} processors. */
    private String[] launch(int mvnStatus, String javaOpts, int processors) throws Exception {
        Path script = Paths.get("").toAbsolutePath().getParent().resolve("bin/dsmscope");
        assumeTrue(Files.isRegularFile(script), "no bin/dsmscope beside the cli module");
        assumeTrue(Files.isExecutable(Paths.get("/bin/bash")), "bash is not installed");
        Path run = Files.createTempDirectory(dir, "launch");
        Path root = run.resolve("root");
        Files.createDirectories(root.resolve("bin"));
        Files.copy(script, root.resolve("bin/dsmscope"));
        Path fake = Files.createDirectories(run.resolve("fakebin"));
        // Maven 3.8 prints colour resets even with -B -q; this one does so on both streams
        exe(fake.resolve("mvn"), "#!/bin/bash\nprintf '\\033[0m\\033[1mcompiling\\033[m\\n'\nprintf '\\033[0m' >&2\n"
                + (mvnStatus == 0 ? "mkdir -p cli/target && touch cli/target/dsmscope.jar\n"
                        : "echo '[ERROR] Failed to execute goal' >&2\n") + "exit " + mvnStatus + "\n");
        exe(fake.resolve("java"), "#!/bin/bash\necho \"java ran $*\"\n");
        exe(fake.resolve("nproc"), "#!/bin/bash\necho " + processors + "\n");
        ProcessBuilder pb = new ProcessBuilder("/bin/bash", root.resolve("bin/dsmscope").toString(), "--version");
        pb.environment().put("PATH", fake + ":" + System.getenv("PATH"));
        pb.environment().remove("DSMSCOPE_NO_BUILD");
        pb.environment().remove("DSMSCOPE_JAVA_OPTS");
        if (javaOpts != null) {
            pb.environment().put("DSMSCOPE_JAVA_OPTS", javaOpts);
        }
        Path err = run.resolve("err");
        Process p = pb.redirectError(err.toFile()).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(60, TimeUnit.SECONDS));
        return new String[] {String.valueOf(p.exitValue()), out, Files.readString(err)};
    }

    private static void exe(Path file, String text) throws Exception {
        Files.writeString(file, text);
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rwxr-xr-x"));
    }

    @Test
    void firstBuild_saysWhatItBuildsAndWhy_withoutEscapeCodes_thenRunsTheCommand() throws Exception {
        String[] r = launch(0);
        assertEquals("0", r[0], r[2]);
        assertTrue(r[2].contains("dsmscope: building cli/target/dsmscope.jar with Maven (first use); this takes a"
                + " minute or two"), r[2]);
        assertFalse((r[1] + r[2]).contains(ESC), "escape codes: " + r[1] + r[2]);
        assertTrue(r[1].contains("java ran ") && r[1].contains("-Ddsmscope.launcher=") && r[1].contains("--version"),
                r[1]);
    }

    @Test
    void failedBuild_showsMavensOutputWithoutEscapeCodes_andExits1() throws Exception {
        String[] r = launch(1);
        assertEquals("1", r[0]);
        assertTrue(r[2].contains("[ERROR] Failed to execute goal"), r[2]);
        assertTrue(r[2].contains("dsmscope: the build failed"), r[2]);
        assertFalse((r[1] + r[2]).contains(ESC), "escape codes: " + r[2]);
        assertFalse(r[1].contains("java ran"), r[1]);
    }

    @Test
    void javaOptions_default4GiBAndLateC2OnFewProcessors_replacedWholeByTheEnvironment() throws Exception {
        String[] r = launch(0);
        assertTrue(r[1].contains("java ran -Xmx4g -XX:Tier4InvocationThreshold=50000"
                + " -XX:Tier4MinInvocationThreshold=6000 -XX:Tier4CompileThreshold=150000"
                + " -XX:Tier4BackEdgeThreshold=400000 -Ddsmscope.home="), r[1]);
        r = launch(0, "-Xmx1g -XX:+UseSerialGC");
        assertTrue(r[1].contains("java ran -Xmx1g -XX:+UseSerialGC -Ddsmscope.home="), r[1]);
        assertFalse(r[1].contains("Tier4"), r[1]);
    }

    @Test
    void javaOptions_onManyProcessors_keepTheJvmsC2Thresholds() throws Exception {
        String[] r = launch(0, null, 4);
        assertTrue(r[1].contains("java ran -Xmx4g -XX:Tier4InvocationThreshold=50000"), r[1]);
        r = launch(0, null, 5);
        assertTrue(r[1].contains("java ran -Xmx4g -Ddsmscope.home="), r[1]);
        assertFalse(r[1].contains("Tier4"), r[1]);
    }
}
