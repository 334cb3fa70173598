package org.dsmscope.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The programs as a user runs them: a separate JVM, one output line, exit status 0, 1 or 2. */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class CliTest {

    /** Exit status, standard output and standard error of one run. */
    record Run(int status, String out, String err) {
    }

    static Run java(String mainClass, String... args) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>();
        cmd.add(System.getProperty("java.home") + File.separator + "bin" + File.separator + "java");
        cmd.add("-cp");
        cmd.add(System.getProperty("java.class.path"));
        cmd.add(mainClass);
        cmd.addAll(List.of(args));
        File err = File.createTempFile("examples-cli", ".err");
        try {
            Process p = new ProcessBuilder(cmd).redirectError(err).start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            int status = p.waitFor();
            return new Run(status, out, java.nio.file.Files.readString(err.toPath()));
        } finally {
            err.delete();
        }
    }

    @Test
    void matMul_printsOneLineWithTheCheckValue_andExitsZero() throws Exception {
        Run r = java("org.dsmscope.examples.MatMul", "4", "64");
        assertEquals(0, r.status(), r.err());
        assertEquals(MatMul.run(1, 64).line("MatMul", 4, 64) + System.lineSeparator(), r.out());
        assertTrue(r.out().matches("MatMul threads=4 size=64 check=-?\\d+ PASS\\R"), r.out());
    }

    @Test
    void everyExample_runsFromTheCommandLineWithItsSmallArguments() throws Exception {
        for (Examples.Entry e : Examples.all()) {
            Run r = java(e.mainClass().getName(), e.smallArgs(2).toArray(new String[0]));
            assertEquals(0, r.status(), e.name() + ": " + r.err());
            String expected = e.run(1, e.smallSize()).line(e.mainClass().getSimpleName(), 2, e.smallSize());
            assertEquals(expected + System.lineSeparator(), r.out(), e.name());
        }
    }

    @Test
    void noArguments_runsTheDefaults() throws Exception {
        Run r = java("org.dsmscope.examples.WorkQueue");
        assertEquals(0, r.status(), r.err());
        assertTrue(r.out().startsWith("WorkQueue threads=4 size=" + WorkQueue.DEFAULT_SIZE + " check="), r.out());
    }

    @Test
    void badArguments_giveOneLineOnStandardError_andExitTwo() throws Exception {
        String[][] cases = {{"x"}, {"0"}, {"2", "0"}, {"2", "1000"}, {"1", "2", "3"}};
        String[] expected = {"thread count must be an integer, was 'x'", "thread count must be 1..1024, was 0",
            "size (points) must be a power of 4", "size (points) must be a power of 4", "expected at most 2 arguments"};
        for (int i = 0; i < cases.length; i++) {
            Run r = java("org.dsmscope.examples.Fft", cases[i]);
            assertEquals(2, r.status(), String.join(" ", cases[i]));
            assertEquals("", r.out());
            assertEquals(1, r.err().lines().count(), r.err());
            assertTrue(r.err().startsWith("Fft: " + expected[i]), r.err());
        }
    }

    @Test
    void failedSelfCheck_printsFail_andExitsOne() throws Exception {
        Run r = java("org.dsmscope.examples.FailingExample", "2");
        assertEquals(1, r.status());
        assertEquals("FailingExample threads=2 size=3 check=42 error: always wrong FAIL" + System.lineSeparator(),
                r.out());
    }
}
