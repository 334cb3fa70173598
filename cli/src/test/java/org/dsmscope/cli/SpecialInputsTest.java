package org.dsmscope.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Pipes, FIFOs and devices as inputs (issue 23 item 4): a pipe is streamed where an input is read once ({@code
 * dump}, {@code convert}), refused in one line where it would be read twice (a replay's traces); a device such as
 * {@code /dev/zero} is refused in one line by every reader instead of a crash or an endless read.
 */
@Timeout(60)
class SpecialInputsTest {
    @TempDir
    Path dir;

    private static void assertOneLine(CiatCommandTest.Run r, String expected) {
        assertEquals(2, r.status(), r.out() + r.err());
        assertFalse(r.err().contains("\tat "), r.err());
        assertEquals(1, r.err().lines().count(), r.err());
        assertTrue(r.err().contains(expected), r.err());
    }

    private String gen() {
        assertEquals(0, CiatCommandTest.run("gen", "forkjoin", "--threads", "2", "--instructions", "300", "--name",
                "g", "-o", dir.toString()).status());
        return dir.resolve("g.2").toString();
    }

    /** A FIFO at {@code fifo} that a background thread fills with {@code content}, once. */
    private static Thread feed(Path fifo, Path content) throws IOException, InterruptedException {
        Process p = new ProcessBuilder("mkfifo", fifo.toString()).start();
        assumeTrue(p.waitFor() == 0, "mkfifo not available");
        Thread t = new Thread(() -> {
            try {
                Files.write(fifo, Files.readAllBytes(content));
            } catch (IOException e) {
                // the reader refused the FIFO and never opened it: nothing to feed
            }
        });
        t.setDaemon(true);
        t.start();
        return t;
    }

    @Test
    void dumpAndConvert_streamAFifo_asTheyReadTheFile() throws IOException, InterruptedException {
        String set = gen();
        Path f = Path.of(set + ".0");
        Path fifo = dir.resolve("fifo");
        feed(fifo, f);
        CiatCommandTest.Run piped = CiatCommandTest.run("dump", fifo.toString());
        CiatCommandTest.Run file = CiatCommandTest.run("dump", f.toString());
        assertEquals(0, piped.status(), piped.err());
        assertEquals(file.out().replace(f.toString(), "X"), piped.out().replace(fifo.toString(), "X"));
        Path fifo2 = dir.resolve("fifo2");
        feed(fifo2, f);
        CiatCommandTest.Run conv = CiatCommandTest.run("convert", fifo2.toString(), "-o", dir.resolve("c")
                .toString());
        assertEquals(0, conv.status(), conv.err());
        assertEquals(file.out().lines().skip(2).toList(), CiatCommandTest.run("dump", dir.resolve("c.1.0")
                .toString()).out().lines().skip(2).toList());
    }

    @Test
    void aFifoInATraceSet_isRefusedInOneLine_itWouldBeReadTwice() throws IOException, InterruptedException {
        String set = gen();
        Files.copy(Path.of(set + ".1"), dir.resolve("h.2.1"));
        Path fifo = dir.resolve("h.2.0");
        feed(fifo, Path.of(set + ".0"));
        assertOneLine(CiatCommandTest.run("ciat", dir.resolve("h.2").toString()), fifo + ": is a pipe; a trace file"
                + " is read more than once here: save it to a file first");
        // unblock the feeder
        Files.readAllBytes(fifo);
    }

    /** Issue 23: a pipe given as the trace set itself ({@code ciat /dev/stdin}) is refused as a pipe, not misnamed. */
    @Test
    void aFifoAsTheTraceSetArgument_isRefusedAsAPipe() throws IOException, InterruptedException {
        String set = gen();
        Path fifo = dir.resolve("stdin");
        feed(fifo, Path.of(set + ".0"));
        for (String cmd : List.of("ciat", "explain")) {
            assertOneLine(CiatCommandTest.run(cmd, "-p", fifo.toString()), fifo + ": is a pipe; a trace file is"
                    + " read more than once here (a replay's prescan, then the replay): save it to a file first");
        }
        Files.readAllBytes(fifo);
    }

    @Test
    void devZero_isRefusedInOneLine_byEveryReader() throws IOException {
        Path zero = Path.of("/dev/zero");
        assumeTrue(Files.exists(zero), "no /dev/zero");
        String set = gen();
        Path list = Files.writeString(dir.resolve("list"), "/dev/zero\n");
        String dev = "/dev/zero: is a device, not ";
        assertOneLine(CiatCommandTest.run("dump", "/dev/zero"), dev + "a trace file");
        assertOneLine(CiatCommandTest.run("dump", "--skip-bad-records", "/dev/zero"), dev + "a trace file");
        assertOneLine(CiatCommandTest.run("convert", "/dev/zero", "-o", dir.resolve("z").toString()),
                dev + "a trace file");
        assertOneLine(CiatCommandTest.run("ciat", "-t", list.toString()), list + ": line 1: " + dev + "a trace file");
        assertOneLine(CiatCommandTest.run("ciat", "-t", "/dev/zero"), dev + "a list file");
        assertOneLine(CiatCommandTest.run("cdat", set, "/dev/zero"), dev + "a CDAT configuration file");
        assertOneLine(CiatCommandTest.run("cdat", set, "--config", "/dev/zero"), dev + "a CDAT configuration file");
        assertOneLine(CiatCommandTest.run("tdat", "/dev/zero", dir.resolve("t").toString(), "10", "2"),
                dev + "an event trace");
        assertOneLine(CiatCommandTest.run("import", "lackey", "/dev/zero", "-o", dir.resolve("l").toString()),
                dev + "a Lackey output file");
        assertOneLine(CiatCommandTest.run("monitor", "summary", "/dev/zero"), "/dev/zero: is a device");
    }
}
