package org.dsmscope.tdat;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.file.Files;
import java.nio.file.Path;
import org.dsmscope.trace.BadInputException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Every user's mistake TDAT finds: one message naming the input (file and line, or option) and what is wrong. */
class ErrorsTest {
    private static final String HEAD = EventReader.CIAT_HEADER + "\n# fields: clock type processor degree\n";

    @TempDir
    Path dir;

    private String readError(String content) throws Exception {
        return readError(content, 1000);
    }

    private String readError(String content, long bin) throws Exception {
        Path f = dir.resolve("in");
        Files.writeString(f, content);
        Tdat t = new Tdat(TdatOptions.of(bin, 4));
        return assertThrows(BadInputException.class, () -> t.read(f)).getMessage().replace(f.toString(), "FILE");
    }

    @Test
    void ciatLines() throws Exception {
        assertEquals("FILE: line 4: a CIAT event has 4 fields (clock type processor degree), found 3",
                readError(HEAD + "1 RAW 0 0\n2 RAW 0\n"));
        assertEquals("FILE: line 3: a CIAT event has 4 fields (clock type processor degree), found more than 4",
                readError(HEAD + "1 RAW 0 0 9\n"));
        assertEquals("FILE: line 3: clock 'x12' is not a decimal number", readError(HEAD + "x12 RAW 0 0\n"));
        assertEquals("FILE: line 3: clock '99999999999999999999' is not a decimal number",
                readError(HEAD + "99999999999999999999 RAW 0 0\n"));
        assertEquals("FILE: line 3: negative clock -5", readError(HEAD + "-5 RAW 0 0\n"));
        assertEquals("FILE: line 3: unknown event type 'RAWW' (RAW, WAR, WAW or RAR)",
                readError(HEAD + "5 RAWW 0 0\n"));
        assertEquals("FILE: line 3: unknown event type 'raw' (RAW, WAR, WAW or RAR)", readError(HEAD + "5 raw 0 0\n"));
        assertEquals("FILE: line 3: processor 'p1' is not a decimal number", readError(HEAD + "5 RAW p1 0\n"));
        assertEquals("FILE: line 3: processor -1 out of range (0..2147483647)", readError(HEAD + "5 RAW -1 0\n"));
        assertEquals("FILE: line 3: degree '?' is not a decimal number", readError(HEAD + "5 WAR 1 ?\n"));
        assertEquals("FILE: line 3: negative degree -2", readError(HEAD + "5 WAR 1 -2\n"));
        assertEquals("FILE: line 1: CIAT event trace format 'dsmscope-ciat-events 2' not supported (tdat reads"
                + " 'dsmscope-ciat-events 1')", readError("# dsmscope-ciat-events 2\n1 RAW 0 0\n"));
    }

    @Test
    void unknownKind() throws Exception {
        String tail = ": not an event trace tdat reads: expected a CIAT event trace (first line '# dsmscope-ciat-events"
                + " 1'), a CDAT general trace ('clock addr code proc node bank hnode status sharing_list -1') or a"
                + " CDAT detailed trace (7 fields); found ";
        assertEquals("FILE: line 2" + tail + "4 field(s)", readError("\n1 RAW 0 0\n"));
        assertEquals("FILE: line 1" + tail + "a '#' line", readError("# dsmscope-memory 1\n"));
        assertEquals("FILE: line 1" + tail + "9 field(s)", readError("1 2 3 4 5 6 7 8 9\n"));
    }

    @Test
    void cdatLines_throughTheTrafficReader_andNegativeClocksByLine() throws Exception {
        assertEquals("FILE: line 2: a detailed record has 7 fields (clock addr code and four more), found 6",
                readError("1 4096 2 0 0 1 1\n2 4096 2 0 0 1\n"));
        assertEquals("FILE: line 2: unknown transaction code 7", readError("1 4096 2 0 0 1 1\n2 4096 7 0 0 1 1\n"));
        assertEquals("FILE: line 2: clock 'x' is not a decimal number",
                readError("1 4096 2 0 0 1 1 1 0 -1\nx 4096 2 0 0 1 1 1 0 -1\n"));
        assertEquals("FILE: line 4: clock -3 is negative", readError("1 4096 2 0 0 1 1\n\n2 4096 2 0 0 1 1\n"
                + "-3 4096 2 0 0 1 1\n"));
        assertEquals("FILE: line 3: clock -3 is negative", readError("1 4096 2 0 0 1 1 1 0 -1\n\n"
                + "-3 0 92 0 0 0 0 0 0 -1\n"));
    }

    @Test
    void tooManyBins_namesBinAndClock() throws Exception {
        assertEquals("FILE: line 4: clock 100000000 with BIN 1 needs more than 100000000 bins: give a BIN of at"
                + " least 2", readError(HEAD + "5 RAW 0 0\n100000000 RAW 0 0\n", 1));
        assertEquals("FILE: line 2: clock 400000000000 with BIN 1000 needs more than 100000000 bins: give a BIN of at"
                + " least 4001", readError("5 4096 2 0 0 1 1\n400000000000 4096 2 0 0 1 1\n"));
        assertEquals("FILE: line 1: clock 400000000000 with BIN 1000 needs more than 100000000 bins: give a BIN of at"
                + " least 4001", readError("400000000000 4096 2 0 0 1 1 1 -1\n"));
    }

    @Test
    void files() throws Exception {
        Tdat t = new Tdat(TdatOptions.of(1000, 4));
        Path missing = dir.resolve("nope");
        assertEquals(missing + ": no such file",
                assertThrows(BadInputException.class, () -> t.read(missing)).getMessage());
        assertEquals(dir + ": is a directory, not an event trace",
                assertThrows(BadInputException.class, () -> t.read(dir)).getMessage());
        Path bin = dir.resolve("bin");
        Files.write(bin, new byte[] {'1', ' ', (byte) 0xC3, (byte) 0xA9, '\n'});
        assertEquals(bin + ": not a text event trace (it holds bytes that are not ASCII)",
                assertThrows(BadInputException.class, () -> t.read(bin)).getMessage());
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "FOO|||option --types: unknown event type 'FOO' (CIAT event traces: RAW, WAR, WAW, RAR; CDAT traces: a code"
            + " or name of seed 000 Appendix C, e.g. 2 or read_priv_own, status records 91 / 92)",
        "7|||option --types: unknown event type '7' (CIAT event traces: RAW, WAR, WAW, RAR; CDAT traces: a code"
            + " or name of seed 000 Appendix C, e.g. 2 or read_priv_own, status records 91 / 92)",
        "RAW,,WAR|||option --types: empty entry in 'RAW,,WAR'",
        "|1,x||option --processors: 'x' is not a number or a range A-B of numbers 0..65535",
        "|-1||option --processors: '-1' is not a number or a range A-B of numbers 0..65535",
        "|70000||option --processors: 70000 out of range (0..65535)",
        "||3-1|option --nodes: empty range '3-1'",
        "||1-|option --nodes: '1-' is not a number or a range A-B of numbers 0..65535",
    })
    void selectionOptions(String types, String processors, String nodes, String message) {
        assertEquals(message, assertThrows(BadInputException.class,
                () -> Selection.parse(types, processors, nodes)).getMessage());
    }

    @Test
    void numbers() {
        assertEquals("tdat: BIN '0' is not a positive integer", assertThrows(BadInputException.class,
                () -> TdatOptions.positive("BIN", "0", Long.MAX_VALUE)).getMessage());
        assertEquals("tdat: p 'four' is not a positive integer", assertThrows(BadInputException.class,
                () -> TdatOptions.positive("p", "four", Integer.MAX_VALUE)).getMessage());
        assertEquals("tdat: p '-4' is not a positive integer", assertThrows(BadInputException.class,
                () -> TdatOptions.positive("p", "-4", Integer.MAX_VALUE)).getMessage());
        assertEquals("tdat: p 4294967296 is too large (at most 2147483647)", assertThrows(BadInputException.class,
                () -> TdatOptions.positive("p", "4294967296", Integer.MAX_VALUE)).getMessage());
        assertEquals(1000, TdatOptions.positive("BIN", "1000", Long.MAX_VALUE));
        TdatOptions o = TdatOptions.of(1000, 4);
        o.rateBins = 0;
        assertEquals("option --rate-bins: value 0 out of range (1..10000)",
                assertThrows(BadInputException.class, () -> new Tdat(o)).getMessage());
        o.rateBins = 10_001;
        assertEquals("option --rate-bins: value 10001 out of range (1..10000)",
                assertThrows(BadInputException.class, () -> new Tdat(o)).getMessage());
    }
}
