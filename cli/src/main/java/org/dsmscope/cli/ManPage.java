package org.dsmscope.cli;

import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import picocli.CommandLine;
import picocli.CommandLine.Model.ArgSpec;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Model.PositionalParamSpec;

/**
 * One command's manual page in troff ({@code man -l}), rendered from the command's own picocli model: the same
 * synopsis, descriptions and option texts as its {@code --help} (SPEC §10). Section 1, named
 * {@code dsmscope-SUB[-SUBSUB].1}; no date, so the same command tree gives the same bytes.
 */
final class ManPage {
    private static final CommandLine.Help.ColorScheme PLAIN =
            new CommandLine.Help.ColorScheme.Builder(CommandLine.Help.Ansi.OFF).build();

    private ManPage() {
    }

    /** Every command of the tree under {@code root} (itself first, then its subcommands depth first), once each. */
    static List<CommandSpec> commands(CommandSpec root) {
        List<CommandSpec> all = new ArrayList<>();
        collect(root, all, new IdentityHashMap<>());
        return all;
    }

    private static void collect(CommandSpec spec, List<CommandSpec> all, Map<CommandSpec, Boolean> seen) {
        if (seen.put(spec, Boolean.TRUE) != null || spec.usageMessage().hidden()) {
            return;
        }
        all.add(spec);
        for (CommandLine sub : spec.subcommands().values()) {
            collect(sub.getCommandSpec(), all, seen);
        }
    }

    /** The page's name without its section: {@code dsmscope-dsm-run}. */
    static String name(CommandSpec spec) {
        return spec.qualifiedName("-");
    }

    /** The page in troff. */
    static String troff(CommandSpec spec, String version) {
        StringBuilder b = new StringBuilder();
        String name = name(spec);
        b.append(".TH \"").append(esc(name.toUpperCase(java.util.Locale.ROOT))).append("\" \"1\" \"\" \"")
                .append(esc(version)).append("\" \"dsmscope manual\"\n");
        b.append(".SH NAME\n").append(esc(name)).append(" \\- ").append(esc(firstLine(spec))).append('\n');
        b.append(".SH SYNOPSIS\n.nf\n");
        for (String line : new CommandLine.Help(spec, PLAIN).synopsis(0).split("\\R")) {
            if (!line.isBlank()) {
                b.append(text(line.stripTrailing())).append('\n');
            }
        }
        b.append(".fi\n");
        String[] description = spec.usageMessage().description();
        if (description.length > 0) {
            b.append(".SH DESCRIPTION\n");
            paragraph(b, String.join("\n", description));
        }
        List<PositionalParamSpec> params = new ArrayList<>();
        for (PositionalParamSpec p : spec.positionalParameters()) {
            if (!p.hidden()) {
                params.add(p);
            }
        }
        if (!params.isEmpty()) {
            b.append(".SH ARGUMENTS\n");
            for (PositionalParamSpec p : params) {
                b.append(".TP\n\\fI").append(esc(p.paramLabel())).append("\\fR\n");
                paragraph(b, describe(p));
            }
        }
        List<OptionSpec> options = new ArrayList<>();
        for (OptionSpec o : spec.options()) {
            if (!o.hidden()) {
                options.add(o);
            }
        }
        if (!options.isEmpty()) {
            b.append(".SH OPTIONS\n");
            for (OptionSpec o : options) {
                b.append(".TP\n");
                String[] names = o.names();
                for (int i = 0; i < names.length; i++) {
                    b.append(i == 0 ? "" : ", ").append("\\fB").append(esc(names[i])).append("\\fR");
                }
                if (o.arity().max() > 0) {
                    b.append("=\\fI").append(esc(o.paramLabel())).append("\\fR");
                }
                b.append('\n');
                paragraph(b, describe(o));
            }
        }
        List<CommandSpec> subs = new ArrayList<>();
        Map<CommandSpec, Boolean> seen = new IdentityHashMap<>();
        for (CommandLine sub : spec.subcommands().values()) {
            CommandSpec s = sub.getCommandSpec();
            if (!s.usageMessage().hidden() && seen.put(s, Boolean.TRUE) == null) {
                subs.add(s);
            }
        }
        if (!subs.isEmpty()) {
            b.append(".SH COMMANDS\n");
            for (CommandSpec s : subs) {
                b.append(".TP\n\\fB").append(esc(s.name())).append("\\fR\n");
                paragraph(b, firstLine(s) + " See " + name(s) + "(1).");
            }
        }
        b.append(".SH EXIT STATUS\n");
        b.append(".TP\n\\fB0\\fR\n").append(text("Success.")).append('\n');
        b.append(".TP\n\\fB1\\fR\n").append(text("An internal failure (with its stack trace), or the heap was too"
                + " small (one line saying how to give more).")).append('\n');
        b.append(".TP\n\\fB2\\fR\n").append(text("A user's mistake: one line naming the input, the position and"
                + " what is wrong.")).append('\n');
        b.append(".SH SEE ALSO\n");
        List<String> see = new ArrayList<>();
        if (spec.parent() != null) {
            see.add("\\fB" + esc(name(spec.parent())) + "\\fR(1)");
        }
        for (CommandSpec s : subs) {
            see.add("\\fB" + esc(name(s)) + "\\fR(1)");
        }
        see.add("the module READMEs of the dsmscope repository");
        b.append(String.join(", ", see)).append('\n');
        return b.toString();
    }

    /** The first sentence-line of the command's description (what the NAME section and a command list show). */
    static String firstLine(CommandSpec spec) {
        String[] d = spec.usageMessage().description();
        if (d.length == 0) {
            return "";
        }
        String first = plain(d[0]);
        int nl = first.indexOf('\n');
        return (nl < 0 ? first : first.substring(0, nl)).strip();
    }

    private static String describe(ArgSpec arg) {
        return plain(String.join("\n", arg.description()));
    }

    /** Help text without picocli markup ({@code @|bold x|@}) and with its format escapes ({@code %n}) applied. */
    private static String plain(String s) {
        return CommandLine.Help.Ansi.OFF.string(s).replace("%n", "\n").replace("%%", "%");
    }

    private static void paragraph(StringBuilder b, String s) {
        for (String line : plain(s).split("\\R")) {
            b.append(line.isBlank() ? ".sp" : text(line.strip())).append('\n');
        }
    }

    /** A text line: escaped, and protected from being read as a request when it starts with '.' or '\''. */
    private static String text(String s) {
        String e = esc(s);
        return e.startsWith(".") || e.startsWith("'") ? "\\&" + e : e;
    }

    /**
     * troff escapes: backslash, minus signs that must stay minus signs (options) rather than hyphens, and every
     * non-ASCII character as its Unicode escape (troff reads its input as Latin-1).
     */
    static String esc(String s) {
        StringBuilder b = new StringBuilder(s.length() + 16);
        s.codePoints().forEach(c -> {
            if (c == '\\') {
                b.append("\\e");
            } else if (c == '-') {
                b.append("\\-");
            } else if (c > 126) {
                b.append(String.format(java.util.Locale.ROOT, "\\[u%04X]", c));
            } else {
                b.appendCodePoint(c);
            }
        });
        return b.toString();
    }
}
