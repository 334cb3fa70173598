package org.dsmscope.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.dsmscope.tracedprog.StampedHandOff;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A failed on-the-fly analysis (issue 22): {@code dsmscope trace --type to_ciat} exits 2 once the program has
 * ended, reports the program's own exit status beside the analysis' message, and that message names only files
 * that exist (at the end of the run the records are kept under the trace set's names; live, it says they are not
 * kept).
 */
class OnTheFlyFailureTest {
    @TempDir
    Path dir;

    private final StringWriter err = new StringWriter();

    private int trace(String name, String... opts) {
        List<String> a = new ArrayList<>(List.of("trace", "--level", "1", "--type", "to_ciat", "-o", name));
        a.addAll(List.of(opts));
        a.add("--");
        a.add(Paths.get(System.getProperty("java.home"), "bin", "java").toString());
        a.add("-Ddsmscope.jar=" + System.getProperty("java.class.path"));
        a.add("-cp");
        a.add(Paths.get("target", "test-classes").toAbsolutePath().toString());
        a.add(StampedHandOff.class.getName());
        picocli.CommandLine cl = Main.commandLine();
        cl.setErr(new PrintWriter(err, true));
        return cl.execute(a.toArray(new String[0]));
    }

    @Test
    void aFailedAnalysisAtTheEnd_exits2_withTheProgramsStatus_andKeepsTheRecordsItNames() throws Exception {
        assumeTrue(TraceCommand.findAgentJar() != null, "agent jar not built");
        String name = dir.resolve("ho").toString();
        assertEquals(2, trace(name), err.toString());
        String msg = err.toString();
        assertTrue(msg.startsWith("dsmscope: the on-the-fly analysis failed (the traced program exited with status"
                + " 3): to_ciat: deadlock: no thread can proceed;"), msg);
        assertTrue(msg.contains("--skip-bad-records") && msg.contains("-i P -a"), "how to analyse anyway: " + msg);
        Matcher m = Pattern.compile(Pattern.quote(name) + "\\.3\\.\\d").matcher(msg);
        int named = 0;
        while (m.find()) {
            assertTrue(Files.isRegularFile(Paths.get(m.group())), "the message names " + m.group() + ": " + msg);
            named++;
        }
        assertTrue(named >= 2, "the waiting threads' files: " + msg);
        assertFalse(msg.contains(".dsmscope-spill-"), msg);
        assertEquals(2, CiatCommandTest.run("ciat", name + ".3").status(), "the kept records: the same deadlock");
        assertEquals(0, CiatCommandTest.run("ciat", "--skip-bad-records", name + ".3").status(),
                "and the way round it the message gives");
    }

    @Test
    void aFailedLiveAnalysis_exits2_andSaysTheRecordsAreNotKept() throws Exception {
        assumeTrue(TraceCommand.findAgentJar() != null, "agent jar not built");
        String name = dir.resolve("live").toString();
        assertEquals(2, trace(name, "--threads", "3"), err.toString());
        String msg = err.toString();
        assertTrue(msg.startsWith("dsmscope: the on-the-fly analysis failed (the traced program exited with status"
                + " 3): to_ciat: deadlock"), msg);
        assertTrue(msg.contains("thread 2 (thread 2's records, byte offset"), msg);
        assertTrue(msg.contains("the records are not kept"), msg);
        assertFalse(msg.contains(name + ".3."), "names no file that does not exist: " + msg);
    }
}
