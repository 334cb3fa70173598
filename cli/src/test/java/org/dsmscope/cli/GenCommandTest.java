package org.dsmscope.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** End-to-end runs of {@code dsmscope gen}. */
class GenCommandTest {
    @TempDir
    Path dir;

    private int run(StringWriter out, StringWriter err, String... args) {
        CommandLine cl = Main.commandLine();
        cl.setOut(new PrintWriter(out));
        cl.setErr(new PrintWriter(err));
        return cl.execute(args);
    }

    @Test
    void forkjoin_writesOneFilePerThread_deterministically() throws Exception {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        assertEquals(0, run(out, err, "gen", "forkjoin", "-o", dir.toString(), "--name", "fj", "--threads", "3",
                "--instructions", "1000", "--seed", "7"), err.toString());
        assertTrue(out.toString().startsWith("wrote " + dir.resolve("fj.3") + " (3 files, "), out.toString());
        byte[] first = Files.readAllBytes(dir.resolve("fj.3.1"));
        assertEquals(0, run(new StringWriter(), err, "gen", "forkjoin", "-o", dir.toString(), "--name", "fj",
                "--threads", "3", "--instructions", "1000", "--seed", "7"));
        assertArrayEquals(first, Files.readAllBytes(dir.resolve("fj.3.1")));
    }

    @Test
    void processes_writesOneFilePerProcess() {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        assertEquals(0, run(out, err, "gen", "processes", "-o", dir.toString(), "--processes", "5", "--slices", "3",
                "--codec", "zstd"), err.toString());
        assertTrue(Files.exists(dir.resolve("processes.5.4")));
    }

    @Test
    void badParameter_exitsTwoWithOneLine() {
        StringWriter err = new StringWriter();
        assertEquals(2, run(new StringWriter(), err, "gen", "forkjoin", "-o", dir.toString(), "--shared", "2"));
        assertEquals("dsmscope: gen: shared fraction 2.0 out of range (0..1)", err.toString().strip());
    }
}
