package org.dsmscope.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * Every command and subcommand answers {@code --help} and {@code help CMD SUB} with its usage and exit 0 (issue 23
 * item 6). The tree is walked from picocli's model, so a command added later is covered without a change here.
 */
class HelpTreeTest {

    /** The name paths of every command below the root ({@code [dsm]}, {@code [dsm, run]}, ...), help aside. */
    private static List<List<String>> paths(CommandLine c, List<String> above, List<List<String>> into) {
        for (var e : c.getSubcommands().entrySet()) {
            if (e.getValue().getCommandSpec().helpCommand() || !e.getKey().equals(e.getValue().getCommandName())) {
                continue; // the help command itself; aliases are the same command
            }
            List<String> p = new ArrayList<>(above);
            p.add(e.getKey());
            into.add(p);
            paths(e.getValue(), p, into);
        }
        return into;
    }

    @Test
    void everyCommand_answersHelpOptionAndHelpCommand_withItsUsage() {
        List<List<String>> all = paths(Main.commandLine(), List.of(), new ArrayList<>());
        assertTrue(all.size() >= 20, "the tree has its commands: " + all);
        for (List<String> p : all) {
            String name = "dsmscope " + String.join(" ", p);
            List<String> opt = new ArrayList<>(p);
            opt.add("--help");
            CiatCommandTest.Run viaOption = CiatCommandTest.run(opt.toArray(new String[0]));
            assertEquals(0, viaOption.status(), name + " --help: " + viaOption.err());
            assertTrue(viaOption.out().startsWith("Usage: " + name), name + " --help: " + viaOption.out());
            assertEquals("", viaOption.err(), name);
            List<String> cmd = new ArrayList<>(List.of("help"));
            cmd.addAll(p);
            CiatCommandTest.Run viaCommand = CiatCommandTest.run(cmd.toArray(new String[0]));
            assertEquals(0, viaCommand.status(), "help " + String.join(" ", p) + ": " + viaCommand.err());
            assertEquals(viaOption.out(), viaCommand.out(), "help " + String.join(" ", p));
        }
    }

    @Test
    void helpOfAnUnknownSubcommand_isOneLineExitTwo() {
        CiatCommandTest.Run r = CiatCommandTest.run("help", "dsm", "nope");
        assertEquals(2, r.status());
        assertTrue(r.err().startsWith("dsmscope: Unknown subcommand 'nope' of 'dsmscope dsm'"), r.err());
        assertFalse(r.err().contains("\tat "), r.err());
    }
}
