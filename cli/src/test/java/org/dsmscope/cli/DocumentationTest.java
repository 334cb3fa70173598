package org.dsmscope.cli;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;

/**
 * What a user reads: the top README lists every command of the live command tree, its links lead to files in the
 * repository (a clone has no design documents beside it), and no README keeps a diary of how it was built.
 */
class DocumentationTest {
    private static final Pattern LINK = Pattern.compile("\\]\\(([^)#\\s]+)(#[^)]*)?\\)");
    /** What a diary leaves: numbered work sessions and times of day of runs. */
    private static final Pattern DIARY = Pattern.compile(
            "(?i)\\bsessions? \\d+\\b|\\b\\d{1,2}:\\d\\d(\\s*[–-]\\s*\\d{1,2}:\\d\\d)? UTC\\b"
                    + "|\\b(first|second|third|fourth|fifth|sixth|seventh|eighth) shift\\b");

    /** The checkout's root (the cli module's parent), or null when the tests run elsewhere. */
    private static Path root() {
        Path r = Paths.get("").toAbsolutePath().getParent();
        return r != null && Files.isRegularFile(r.resolve("README.md")) && Files.isDirectory(r.resolve("cli"))
                ? r : null;
    }

    private static List<Path> markdown(Path root) throws IOException {
        List<Path> files = new ArrayList<>();
        files.add(root.resolve("README.md"));
        try (Stream<Path> s = Files.list(root)) {
            for (Path d : s.filter(Files::isDirectory).collect(Collectors.toList())) {
                if (Files.isRegularFile(d.resolve("README.md"))) {
                    files.add(d.resolve("README.md"));
                }
            }
        }
        if (Files.isDirectory(root.resolve("docs"))) {
            try (Stream<Path> s = Files.list(root.resolve("docs"))) {
                s.filter(p -> p.toString().endsWith(".md")).forEach(files::add);
            }
        }
        return files;
    }

    @Test
    void readme_namesEveryCommandInItsTable() throws IOException {
        Path root = root();
        assumeTrue(root != null, "not run from the checkout");
        String readme = Files.readString(root.resolve("README.md"));
        for (CommandLine sub : Main.commandLine().getSubcommands().values()) {
            CommandSpec c = sub.getCommandSpec();
            if (c.name().equals("help")) {
                continue;
            }
            assertTrue(readme.contains("| `dsmscope " + c.name()), "README.md's command table has no row for "
                    + c.name());
        }
    }

    @Test
    void links_leadToFilesInTheRepository() throws IOException {
        Path root = root();
        assumeTrue(root != null, "not run from the checkout");
        for (Path md : markdown(root)) {
            Matcher m = LINK.matcher(Files.readString(md));
            while (m.find()) {
                String target = m.group(1);
                if (target.matches("[a-z]+:.*")) {
                    continue; // a web address
                }
                Path to = md.getParent().resolve(target).normalize();
                assertTrue(to.startsWith(root), md + " links outside the repository: " + target);
                assertTrue(Files.exists(to), md + " links to a missing file: " + target);
            }
        }
    }

    @Test
    void noReadmeKeepsADiary() throws IOException {
        Path root = root();
        assumeTrue(root != null, "not run from the checkout");
        for (Path md : markdown(root)) {
            List<String> lines = Files.readAllLines(md);
            for (int i = 0; i < lines.size(); i++) {
                Matcher m = DIARY.matcher(lines.get(i));
                if (m.find()) {
                    fail(md + ":" + (i + 1) + ": '" + m.group() + "' reads like a diary (git log keeps the history;"
                            + " figures go to bench/RESULTS.md)");
                }
            }
        }
    }
}
