package org.dsmscope.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code dsmscope report}: a page and figure files from results, and one line with exit status 2 for bad input. */
class ReportCommandTest {
    @TempDir
    Path dir;

    private static Object[] run(String... args) {
        StringWriter err = new StringWriter();
        picocli.CommandLine cl = Main.commandLine();
        cl.setErr(new PrintWriter(err, true));
        int status = cl.execute(args);
        return new Object[] {status, err.toString()};
    }

    @Test
    void tdatResults_giveAPageAndFigureFiles() throws Exception {
        Path time = dir.resolve("ev.4.tdat.time");
        Files.writeString(time, "# dsmscope-tdat-time 1 bin 100 processors 4\n0 0\n100 8\n200 4\n");
        Path page = dir.resolve("r.html");
        Object[] r = run("report", time.toString(), "-o", page.toString(), "--figures", dir.resolve("figs").toString());
        assertEquals(0, r[0], (String) r[1]);
        String html = Files.readString(page);
        assertTrue(html.contains("<figure id=\"ev-tdat-rate\">"));
        // 8 events in a bin of 100 clocks on 4 processors: a rate of 0.02
        assertTrue(html.contains("<td>p=4</td><td>100</td><td>3</td><td>12</td><td>0.0200000</td>"), html);
        assertTrue(Files.size(dir.resolve("figs/ev-tdat-rate.png")) > 0);
        assertFalse(Files.exists(dir.resolve("r.html.partial")));
    }

    @Test
    void badInputs_exit2WithOneLineNamingTheFile() throws Exception {
        Path bad = dir.resolve("x.json");
        Files.writeString(bad, "{\"format\": \"dsmscope-ciat-json 9\"}");
        Object[] r = run("report", bad.toString(), "-o", dir.resolve("r.html").toString());
        assertEquals(2, r[0]);
        assertEquals("dsmscope: " + bad + ": format dsmscope-ciat-json version 9 is not supported (the report reads"
                + " version 1)\n", r[1]);
        r = run("report", "-o", dir.resolve("r.html").toString());
        assertEquals(2, r[0]);
        assertTrue(((String) r[1]).startsWith("dsmscope: no result files given"), (String) r[1]);
        r = run("report", bad.toString(), "-o", bad.toString());
        assertEquals("dsmscope: " + bad + ": the report would overwrite one of its inputs\n", r[1]);
        assertFalse(Files.exists(dir.resolve("r.html")));
    }
}
