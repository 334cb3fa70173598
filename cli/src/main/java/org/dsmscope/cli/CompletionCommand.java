package org.dsmscope.cli;

import java.util.concurrent.Callable;
import picocli.AutoComplete;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;

/**
 * {@code dsmscope completion [bash|zsh]}: prints picocli's completion script for the running command tree (every
 * command, subcommand and option, so a command added later is covered without a list to update). The one script
 * serves bash and zsh (it loads zsh's bashcompinit itself). SPEC §10.
 */
@Command(name = "completion", mixinStandardHelpOptions = true,
        description = {"Print a shell completion script for dsmscope (bash or zsh).",
            "Install it with: dsmscope completion > ~/.local/share/bash-completion/completions/dsmscope",
            "(zsh: dsmscope completion zsh > ~/.dsmscope-completion; add 'source ~/.dsmscope-completion' to"
                + " ~/.zshrc)."})
public final class CompletionCommand implements Callable<Integer> {

    /** Shells the script serves. */
    enum Shell { bash, zsh }

    @CommandLine.Spec
    CommandSpec spec;

    @Parameters(index = "0", arity = "0..1", defaultValue = "bash", paramLabel = "bash|zsh",
            description = "The shell (default bash; the script is the same for both).")
    Shell shell;

    @Override
    public Integer call() {
        java.io.PrintWriter out = spec.commandLine().getOut();
        out.print(script(spec.root().commandLine()));
        out.flush();
        return 0;
    }

    /** The completion script of the tree under {@code root}, completing the command name {@code dsmscope}. */
    static String script(CommandLine root) {
        return AutoComplete.bash("dsmscope", root);
    }
}
