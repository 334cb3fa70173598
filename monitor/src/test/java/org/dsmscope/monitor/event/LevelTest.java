package org.dsmscope.monitor.event;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class LevelTest {
    @Test
    void levelLists_parseToMasks_andDescribeBack() {
        assertEquals(Level.ALL, Level.parseMask("all"));
        assertEquals(0, Level.parseMask("none"));
        assertEquals(Level.PROGRAM.bit() | Level.TRANSPORT.bit(), Level.parseMask("transport, Program"));
        assertEquals("program,transport", Level.describe(Level.parseMask("transport,program")));
        assertEquals("none", Level.describe(0));
    }

    @Test
    void unknownLevel_isNamedInTheError() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Level.parseMask("program,tcp"));
        assertTrue(e.getMessage().contains("'tcp'"), e.getMessage());
    }
}
