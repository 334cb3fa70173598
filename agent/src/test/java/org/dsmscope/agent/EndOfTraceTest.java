package org.dsmscope.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import org.dsmscope.progs.ExitProg;
import org.dsmscope.progs.ManyThreadsProg;
import org.dsmscope.trace.CallType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The end of a trace is never lost: normal exit, System.exit, uncaught exception, a thread still running. */
class EndOfTraceTest {
    @TempDir
    Path dir;

    @ParameterizedTest
    @CsvSource({"normal,0", "exit,3", "throw,1"})
    void everyThreadsTraceEnds_withTheProgramsOwnExitStatus(String how, int status) throws Exception {
        Traced t = Traced.run(dir, "level=2", ExitProg.class, how);
        assertEquals(status, t.exit, t.err);
        assertTrue(t.out.contains("check ok"), t.out);
        if (how.equals("throw")) {
            assertTrue(t.err.contains("IllegalStateException: boom"), t.err);
        }
        assertEquals(2, t.threads(), "main and the still-running worker");
        for (int th = 0; th < 2; th++) {
            List<Traced.Rec> rs = t.records(th);
            assertEquals(CallType.START_TRACE, rs.get(0).callType);
            assertEquals(CallType.END_TRACE, rs.get(rs.size() - 1).callType, "thread " + th + " " + how);
        }
        List<Traced.Rec> worker = t.records(1);
        assertTrue(worker.stream().filter(r -> r.isCall(CallType.BEGIN_CRITICAL)).count() > 0);
        assertTrue(t.err.contains("Trace output stored in:"), t.err);
    }

    /**
     * More threads alive at once than the process may open files (400 under {@code ulimit -n 128}): every thread
     * still gets its whole trace (before, the 60-odd threads after the limit were not traced, with one warning).
     */
    @Test
    void moreThreadsAliveThanOpenFilesAllowed_everyThreadIsTraced() throws Exception {
        int n = 400;
        Traced t = Traced.runWithOpenFileLimit(128, dir, "level=2", ManyThreadsProg.class, String.valueOf(n));
        assertEquals(0, t.exit, t.err);
        assertTrue(t.out.contains("threads " + n + " check " + ((long) n * n) + " ok"), t.out);
        assertFalse(t.err.contains("not traced"), t.err);
        assertEquals(n + 1, t.threads());
        for (int th = 1; th <= n; th++) {
            List<Traced.Rec> rs = t.records(th);
            assertEquals(CallType.START_TRACE, rs.get(0).callType, "thread " + th);
            assertEquals(CallType.END_TRACE, rs.get(rs.size() - 1).callType, "thread " + th);
            assertEquals(1, rs.stream().filter(r -> r.isCall(CallType.BEGIN_CRITICAL)).count(), "thread " + th);
        }
    }

    /**
     * Threads whose write buffer does not fit in the direct memory (2 MiB: about 7 threads' buffers) are left
     * untraced with a warning at the start and a count at the end, the program runs on with its own result, the
     * trace set holds the traced threads whole, and no partial file is left (before: no word, and a stray
     * {@code NAME.partial.N}).
     */
    @Test
    void threadsWhoseBufferDoesNotFit_areCountedAndNamed_andTheRestIsAWholeTraceSet() throws Exception {
        int n = 12;
        Traced t = Traced.runWithJvmOptions(List.of("-XX:MaxDirectMemorySize=2m"), dir, "level=2",
                ManyThreadsProg.class, String.valueOf(n));
        assertEquals(0, t.exit, t.err);
        assertTrue(t.out.contains("threads " + n + " check " + ((long) n * n) + " ok"), t.out);
        int p = t.threads();
        assertTrue(p >= 2 && p < n, "traced " + p);
        assertTrue(t.err.contains("cannot write trace file " + t.name + ".partial." + p + ": out of memory for its"
                + " write buffer"), t.err);
        assertTrue(t.err.contains("-XX:MaxDirectMemorySize"), t.err);
        assertTrue(t.err.contains((n + 1 - p) + " thread(s) were not traced, the first thread "), t.err);
        assertTrue(t.err.contains("the trace set holds the " + p + " traced threads"), t.err);
        for (int th = 0; th < p; th++) {
            List<Traced.Rec> rs = t.records(th);
            assertEquals(CallType.END_TRACE, rs.get(rs.size() - 1).callType, "thread " + th);
        }
        try (var files = java.nio.file.Files.list(dir)) {
            assertFalse(files.anyMatch(f -> f.getFileName().toString().contains(".partial.")), "a partial file left");
        }
    }

    /**
     * A trace that cannot be written to its end (a full disk: here thread 1's file is {@code /dev/full}) is counted
     * and named at the end of the run, and the other threads' traces are whole; the incomplete file keeps no end
     * record, which the replay refuses (replay {@code BadInputTest}). Before, each thread warned once when its
     * write failed and the end of the run said nothing.
     */
    @Test
    void aTraceThatCannotBeWrittenToItsEnd_isCountedAtTheEnd() throws Exception {
        Path full = Path.of("/dev/full");
        org.junit.jupiter.api.Assumptions.assumeTrue(java.nio.file.Files.isWritable(full), "no /dev/full");
        java.nio.file.Files.createSymbolicLink(dir.resolve("tr.partial.1"), full);
        Traced t = Traced.run(dir, "level=2", ManyThreadsProg.class, "2");
        assertEquals(0, t.exit, t.err);
        assertTrue(t.err.contains("the traces of 1 thread(s) are incomplete (the first, " + dir.resolve("tr.partial.1")
                + ": "), t.err);
        assertTrue(t.err.contains("No space left on device"), t.err);
        for (int th : new int[] {0, 2}) {
            List<Traced.Rec> rs = t.records(th);
            assertEquals(CallType.END_TRACE, rs.get(rs.size() - 1).callType, "thread " + th);
        }
    }
}
