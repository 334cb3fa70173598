package org.dsmscope.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** The progress line of long work (SPEC §10): what it says, when it shows, how it ends. */
class ProgressTest {
    @Test
    void line_countRateAndTimeLeft() {
        assertEquals("ciat: 182.4 M of 404.5 M records (45%), 7.1 M records/s, about 31 s left",
                Progress.line("ciat", 182_400_000, 404_500_000, 7_100_000));
        assertEquals("ciat: 5000 of 8000 records (62%), 2500 records/s, about 1 s left",
                Progress.line("ciat", 5000, 8000, 2500));
        assertEquals("ciat: 10.0 M of 2.0 G records (0%), 1.0 M records/s, about 33 min left",
                Progress.line("ciat", 10_000_000, 2_000_000_000, 1_000_000));
        assertEquals("ciat: 1.0 M of 1.2 G records (0%), 10000 records/s, about 33 h 20 min left",
                Progress.line("ciat", 1_000_000, 1_201_000_000, 10_000));
    }

    @Test
    void line_beforeTheFirstRecord_unknownTotal_noRateYet_andTheEnd() {
        assertEquals("ciat: starting", Progress.line("ciat", 0, -1, 0));
        assertEquals("ciat: starting", Progress.line("ciat", 0, 1000, 0));
        assertEquals("ciat: 52.3 M records, 4.0 M records/s", Progress.line("ciat", 52_300_000, -1, 4_000_000));
        assertEquals("ciat: 12 of 100 records (12%)", Progress.line("ciat", 12, 100, 0));
        assertEquals("ciat: 100 of 100 records (99%), 50 records/s", Progress.line("ciat", 100, 100, 50),
                "never 100% while running, no time left at the end");
    }

    @Test
    void neverMode_andAutoWithoutAConsole_showNothing() {
        StringWriter w = new StringWriter();
        assertNull(Progress.start(Progress.Mode.NEVER, "ciat", "replayed", new PrintWriter(w), () -> 5, () -> 10));
        if (System.console() == null) { // as under Maven: standard output is not a terminal
            assertNull(Progress.start(Progress.Mode.AUTO, "ciat", "replayed", new PrintWriter(w), () -> 5, () -> 10));
        }
        Progress.close(null);
        assertEquals("", w.toString());
        assertEquals(Progress.Mode.AUTO, Progress.Mode.of(null));
        assertEquals(Progress.Mode.ALWAYS, Progress.Mode.of(true));
        assertEquals(Progress.Mode.NEVER, Progress.Mode.of(false));
    }

    /** Updates in place while the count grows; the kept last line gives the final count. */
    @Test
    void running_rewritesOneLine_thenKeepsTheFinalCount() throws Exception {
        StringWriter w = new StringWriter();
        AtomicLong n = new AtomicLong();
        Progress p = Progress.startForTest("ciat", new PrintWriter(w), n::get, () -> 1_000_000, true, 0, 5);
        // counts while the display samples; a busy machine may run it late: go on until a line shows a rate
        long deadline = System.nanoTime() + 20_000_000_000L;
        while ((n.get() < 400_000 || !w.toString().contains("records/s")) && System.nanoTime() < deadline) {
            if (n.get() < 900_000) {
                n.addAndGet(1000);
            }
            Thread.sleep(1);
        }
        p.close();
        String out = w.toString();
        assertTrue(out.startsWith("\rciat: "), out);
        assertTrue(out.contains(" of 1.0 M records ("), out);
        assertTrue(out.contains(" records/s, about "), out);
        assertTrue(out.indexOf('\n') == out.length() - 1, "one line, rewritten with \\r: " + out);
        String last = out.substring(out.lastIndexOf('\r') + 1);
        assertTrue(last.matches("ciat: " + n.get() + " records replayed, \\d+\\.\\d s\n"),
                "no padding: [" + last + "]");
    }

    /** The auto mode's line is cleared at the end, so what follows starts on a clean line. */
    @Test
    void clearedAtTheEnd_whenNotKept() throws Exception {
        StringWriter w = new StringWriter();
        AtomicLong n = new AtomicLong(123);
        Progress p = Progress.startForTest("ciat", new PrintWriter(w), n::get, () -> -1, false, 0, 5);
        long deadline = System.nanoTime() + 20_000_000_000L;
        while (w.toString().isEmpty() && System.nanoTime() < deadline) {
            Thread.sleep(5);
        }
        p.close();
        String out = w.toString();
        assertTrue(out.startsWith("\rciat: 123 records"), out);
        String shown = "ciat: 123 records";
        assertTrue(out.endsWith("\r" + " ".repeat(shown.length()) + "\r"), "cleared: [" + out + "]");
    }

    /** Work shorter than the quiet time shows nothing at all. */
    @Test
    void shortWork_showsNothing() {
        StringWriter w = new StringWriter();
        Progress p = Progress.startForTest("ciat", new PrintWriter(w), () -> 5, () -> 10, false, 60_000, 5);
        p.close();
        assertEquals("", w.toString());
    }
}
