package org.dsmscope.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code dsmscope completion} and {@code dsmscope man}: both are built from the live command tree, so every command
 * and subcommand (also those added later) is completed by bash and has a manual page with every option.
 */
class CompletionAndManTest {
    @TempDir
    Path dir;

    /** Runs dsmscope in-process; returns {status, stdout, stderr}. */
    private static String[] run(String... args) {
        CiatCommandTest.Run r = CiatCommandTest.run(args);
        return new String[] {String.valueOf(r.status()), r.out(), r.err()};
    }

    private static List<CommandSpec> tree() {
        return ManPage.commands(Main.commandLine().getCommandSpec());
    }

    /** The words after "dsmscope" that name a command: [] for the root, [dsm, run] for dsm run. */
    private static List<String> path(CommandSpec c) {
        List<String> p = new ArrayList<>();
        for (CommandSpec s = c; s.parent() != null; s = s.parent()) {
            p.add(0, s.name());
        }
        return p;
    }

    @Test
    void treeHoldsEveryCommandAndSubcommand() {
        Set<String> names = tree().stream().map(ManPage::name).collect(Collectors.toSet());
        for (String n : new String[] {"dsmscope", "dsmscope-ciat", "dsmscope-cdat", "dsmscope-dsm-run",
            "dsmscope-monitor-summary", "dsmscope-monitor-watch", "dsmscope-gen-forkjoin", "dsmscope-export-chrome",
            "dsmscope-completion", "dsmscope-man"}) {
            assertTrue(names.contains(n), n + " in " + names);
        }
    }

    /**
     * Sources the script in bash and asks it, as bash does on TAB, for every command's name after its parent's
     * words and for every command's options after "-": each name and each option name must be offered.
     */
    @Test
    void completionScript_offersEveryCommandAndEveryOption_inBash() throws Exception {
        assumeTrue(Files.isExecutable(Paths.get("/bin/bash")), "bash is not installed: completion not checked");
        String[] r = run("completion", "bash");
        assertEquals("0", r[0], r[2]);
        Path script = dir.resolve("dsmscope.bash");
        Files.writeString(script, r[1]);
        StringBuilder driver = new StringBuilder("source '" + script + "' 2>/dev/null\n");
        driver.append("ask() { COMP_WORDS=(\"$@\"); COMP_CWORD=$(($# - 1)); COMP_LINE=\"$*\"; COMPREPLY=();"
                + " _complete_dsmscope 2>/dev/null; echo \"$*|${COMPREPLY[*]}\"; }\n");
        List<String[]> expected = new ArrayList<>();
        for (CommandSpec c : tree()) {
            List<String> words = path(c);
            if (!words.isEmpty()) {
                String parent = String.join(" ", words.subList(0, words.size() - 1));
                String name = words.get(words.size() - 1);
                String line = ("dsmscope " + parent).trim() + " " + name.charAt(0);
                driver.append("ask ").append(line).append('\n');
                expected.add(new String[] {line, name});
            }
            String line = ("dsmscope " + String.join(" ", words)).trim() + " -";
            driver.append("ask ").append(line).append('\n');
            for (OptionSpec o : c.options()) {
                if (!o.hidden()) {
                    for (String n : o.names()) {
                        expected.add(new String[] {line, n});
                    }
                }
            }
        }
        Path drv = dir.resolve("driver.bash");
        Files.writeString(drv, driver);
        Process p = new ProcessBuilder("/bin/bash", drv.toString()).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(60, TimeUnit.SECONDS));
        java.util.Map<String, Set<String>> offered = new java.util.HashMap<>();
        for (String l : out.split("\n")) {
            int bar = l.indexOf('|');
            if (bar > 0) {
                offered.put(l.substring(0, bar), new HashSet<>(List.of(l.substring(bar + 1).split("\\s+"))));
            }
        }
        assertTrue(expected.size() > 100, "options and commands checked: " + expected.size());
        for (String[] e : expected) {
            Set<String> got = offered.getOrDefault(e[0], Set.of());
            assertTrue(got.contains(e[1]), "'" + e[0] + "<TAB>' offers " + got + ", not " + e[1]);
        }
    }

    @Test
    void manPages_onePerCommand_withEveryOptionAndTheSynopsisOfItsHelp() throws Exception {
        Path out = dir.resolve("man1");
        String[] r = run("man", "-o", out.toString());
        assertEquals("0", r[0], r[2]);
        List<CommandSpec> tree = tree();
        Set<String> files;
        try (Stream<Path> s = Files.list(out)) {
            files = s.map(f -> f.getFileName().toString()).collect(Collectors.toSet());
        }
        assertEquals(tree.size(), files.size(), files.toString());
        assertTrue(r[1].contains("wrote " + tree.size() + " pages"), r[1]);
        for (CommandSpec c : tree) {
            String name = ManPage.name(c);
            Path page = out.resolve(name + ".1");
            assertTrue(files.contains(name + ".1"), name);
            String text = Files.readString(page);
            assertTrue(text.startsWith(".TH \"" + ManPage.esc(name.toUpperCase(java.util.Locale.ROOT)) + "\" \"1\""),
                    text);
            assertTrue(text.contains(".SH NAME\n" + ManPage.esc(name) + " \\- "), text);
            assertTrue(text.contains(".SH SYNOPSIS"), name);
            for (OptionSpec o : c.options()) {
                if (o.hidden()) {
                    continue; // test and benchmark switches stay out of the help and the pages
                }
                for (String n : o.names()) {
                    assertTrue(text.contains("\\fB" + ManPage.esc(n) + "\\fR"), name + " lacks " + n);
                }
            }
            for (String line : text.split("\n")) {
                assertFalse(line.startsWith(".") && !line.matches("\\.(TH|SH|TP|nf|fi|sp)( .*)?"),
                        name + ": a text line read as a troff request: " + line);
            }
            for (CommandLine sub : c.subcommands().values()) {
                assertTrue(text.contains("\\fB" + ManPage.esc(ManPage.name(sub.getCommandSpec())) + "\\fR(1)"),
                        name + " does not point to " + ManPage.name(sub.getCommandSpec()));
            }
        }
        // the same tree gives the same bytes
        Path again = dir.resolve("again");
        assertEquals("0", run("man", "-o", again.toString())[0]);
        for (String f : files) {
            assertEquals(Files.readString(out.resolve(f)), Files.readString(again.resolve(f)), f);
        }
    }

    @Test
    void manPages_renderWithoutWarnings_whenGroffIsInstalled() throws Exception {
        assumeTrue(Files.isExecutable(Paths.get("/usr/bin/groff")), "groff is not installed: rendering not checked");
        Path out = dir.resolve("man1");
        assertEquals("0", run("man", "-o", out.toString())[0]);
        for (CommandSpec c : tree()) {
            Path page = out.resolve(ManPage.name(c) + ".1");
            Path err = dir.resolve("groff.err");
            Process p = new ProcessBuilder("/usr/bin/groff", "-man", "-Tutf8", "-ww", page.toString())
                    .redirectError(err.toFile()).start();
            String text = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8)
                    // overstruck bold, minus signs
                    .replaceAll(".\b", "").replace('\u2212', '-').replace('\u2010', '-');
            assertTrue(p.waitFor(60, TimeUnit.SECONDS));
            assertEquals("", Files.readString(err), page.toString());
            for (OptionSpec o : c.options()) {
                if (o.hidden()) {
                    continue;
                }
                assertTrue(text.contains(o.longestName()), page + " shows no " + o.longestName() + ":\n" + text);
            }
        }
    }

    @Test
    void manPages_asciidoc_fromPicocliCodegen() throws Exception {
        Path out = dir.resolve("adoc");
        String[] r = run("man", "-o", out.toString(), "--format", "asciidoc");
        assertEquals("0", r[0], r[2]);
        String ciat = Files.readString(out.resolve("dsmscope-ciat.adoc"));
        assertTrue(ciat.contains(":doctype: manpage"), ciat);
        assertTrue(ciat.contains("--partitions"), ciat);
        try (Stream<Path> s = Files.list(out)) {
            assertEquals(tree().size(), s.count());
        }
    }

    @Test
    void man_outputIsAFile_exit2WithOneLine() throws Exception {
        Path file = Files.writeString(dir.resolve("f"), "x");
        String[] r = run("man", "-o", file.toString());
        assertEquals("2", r[0]);
        assertEquals("dsmscope: " + file + ": not a directory", r[2].strip());
        assertEquals("x", Files.readString(file));
    }
}
