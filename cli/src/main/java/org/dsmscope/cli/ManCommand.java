package org.dsmscope.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.codegen.docgen.manpage.ManPageGenerator;

/**
 * {@code dsmscope man -o DIR}: one manual page per command and subcommand of the running command tree (so a
 * command added later gets its page without a list to update), from the same texts as {@code --help} (SPEC §10).
 * troff pages ({@code dsmscope-ciat.1}) by default; {@code --format asciidoc} writes picocli-codegen's AsciiDoc
 * pages ({@code dsmscope-ciat.adoc}) for {@code asciidoctor -b manpage} or a web site.
 */
@Command(name = "man", mixinStandardHelpOptions = true,
        description = {"Write a manual page for every dsmscope command into a folder.",
            "Install them with: dsmscope man -o ~/.local/share/man/man1 (then: man dsmscope-ciat)."})
public final class ManCommand implements Callable<Integer> {

    /** Page formats. */
    enum Format { man, asciidoc }

    @CommandLine.Spec
    CommandSpec spec;

    @Option(names = {"-o", "--out"}, required = true, paramLabel = "DIR",
            description = "Folder for the pages (created if missing).")
    Path out;

    @Option(names = "--format", defaultValue = "man", paramLabel = "man|asciidoc",
            description = "man: troff pages NAME.1 (default); asciidoc: AsciiDoc pages NAME.adoc (picocli-codegen).")
    Format format;

    @Override
    public Integer call() throws IOException {
        if (Files.exists(out) && !Files.isDirectory(out)) {
            throw new UserError(out + ": not a directory");
        }
        Files.createDirectories(out);
        CommandSpec root = spec.root();
        String version = new Version().getVersion()[0];
        List<CommandSpec> commands = ManPage.commands(root);
        for (CommandSpec c : commands) {
            String name = ManPage.name(c);
            String page;
            if (format == Format.man) {
                page = ManPage.troff(c, version);
            } else {
                StringWriter w = new StringWriter();
                try (PrintWriter pw = new PrintWriter(w)) {
                    ManPageGenerator.writeSingleManPage(pw, c);
                }
                page = w.toString();
            }
            write(out.resolve(name + (format == Format.man ? ".1" : ".adoc")), page);
        }
        spec.commandLine().getOut().println("wrote " + commands.size() + " pages (" + format + ") to " + out);
        spec.commandLine().getOut().flush();
        return 0;
    }

    /** Writes under a temporary name and renames, so no page is ever left half written. */
    private static void write(Path file, String text) throws IOException {
        Path tmp = file.resolveSibling(file.getFileName() + ".part");
        Files.writeString(tmp, text, StandardCharsets.UTF_8);
        Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }
}
