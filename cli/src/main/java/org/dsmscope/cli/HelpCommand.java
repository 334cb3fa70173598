package org.dsmscope.cli;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/**
 * {@code dsmscope help [COMMAND [SUBCOMMAND ...]]}: the usage of any command of the tree ({@code help dsm run},
 * {@code help monitor summary}), the same text as {@code dsmscope dsm run --help}; picocli's own help command
 * looks at the first name only.
 */
@Command(name = "help", helpCommand = true,
        description = "Print the usage of dsmscope or of a command (help CMD SUB for a subcommand).")
final class HelpCommand implements CommandLine.IHelpCommandInitializable2, Runnable {
    @Parameters(paramLabel = "COMMAND", arity = "0..*", description = "The command, and its subcommands, to describe.")
    List<String> names = new ArrayList<>();

    private CommandLine self;
    private PrintWriter out;
    private CommandLine.Help.ColorScheme colors;

    @Override
    public void init(CommandLine helpCommandLine, CommandLine.Help.ColorScheme colorScheme, PrintWriter out,
            PrintWriter err) {
        this.self = helpCommandLine;
        this.colors = colorScheme;
        this.out = out;
    }

    @Override
    public void run() {
        CommandLine c = self.getParent();
        if (c == null) {
            return;
        }
        for (String n : names) {
            CommandLine sub = c.getSubcommands().get(n);
            if (sub == null) {
                throw new CommandLine.ParameterException(self, "Unknown subcommand '" + n + "' of '"
                        + c.getCommandSpec().qualifiedName() + "'; its commands: "
                        + String.join(", ", c.getSubcommands().keySet()));
            }
            c = sub;
        }
        c.usage(out, colors);
        out.flush();
    }
}
