package org.dsmscope.options;

import java.io.IOException;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.io.Serializable;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.dsmscope.cdat.CdatOptions;
import org.dsmscope.cdat.config.CdatConfig;
import org.dsmscope.trace.BadInputException;
import picocli.CommandLine.Option;

/**
 * CDAT's own options (seed 000 §5 and Appendix C, SPEC §6): the configurations, the memory usage file of RR2 and
 * Oracle, the coherence checker and JSON; a picocli mixin of {@code dsmscope cdat} and {@code dsmscope cluster cdat}.
 * Serializable for the Spark tasks: the memory usage file travels as an absolute path (an executor's working folder
 * is not the driver's); configurations and JSON are the driver's alone.
 */
public final class CdatFlags implements Serializable {
    private static final long serialVersionUID = 1L;

    @Option(names = "--config", paramLabel = "cfg_file",
            description = "a configuration to simulate (repeatable: one replay feeds them all)")
    transient List<Path> configs = new ArrayList<>();

    @Option(names = "--memory", paramLabel = "FILE",
            description = "memory usage file for RR2 and Oracle (default: trace_file.p.memory, from dsmscope ciat)")
    transient Path memory;

    @Option(names = "--check", description = "run the coherence checker beside the simulation (slower)")
    boolean check;

    @Option(names = "--json", paramLabel = "FILE", description = "also write the results as JSON (one configuration)")
    transient Path json;

    /** {@code --memory FILE}, or null (the trace set's {@code NAME.p.memory}). */
    public Path memory() {
        return memory;
    }

    /** {@code --json FILE}, or null (the driver's alone: not serialized). */
    public Path json() {
        return json;
    }

    /**
     * The configuration files of the run: the {@code --config} files, else the last of the positional arguments
     * {@code args} (removed from it, which keeps the trace sets), if there are at least {@code least} of them; else a
     * {@link BadInputException} {@code TOOL: no configuration file given; usage: USAGE}.
     */
    public List<Path> configFiles(List<String> args, int least, String tool, String usage) {
        List<Path> files = new ArrayList<>(configs);
        if (files.isEmpty()) {
            if (args.size() < least) {
                throw new BadInputException(tool + ": no configuration file given; usage: " + usage);
            }
            files.add(Path.of(args.remove(args.size() - 1)));
        }
        return files;
    }

    /**
     * The configurations of {@code files}, parsed and checked: names that differ (their outputs would collide) and
     * one configuration where {@code --json} is given; a {@link BadInputException} naming the mistake otherwise.
     */
    public List<CdatConfig> configurations(List<Path> files, String tool) {
        List<CdatConfig> cfgs = new ArrayList<>();
        Set<String> names = new HashSet<>();
        for (Path f : files) {
            CdatConfig c = CdatConfig.parse(f);
            if (!names.add(c.name)) {
                throw new BadInputException(tool + ": two configurations are named '" + c.name + "' (their outputs"
                        + " would collide): give one a 'name = ...' item");
            }
            cfgs.add(c);
        }
        if (json != null && cfgs.size() > 1) {
            throw new BadInputException("option --json: one file per configuration; give one configuration");
        }
        return cfgs;
    }

    /**
     * The CDAT options of configuration {@code c}, one of {@code of} in this run (its outputs named with its name
     * where {@code of > 1}); {@code hpux}: {@code -HPUX}.
     */
    public CdatOptions cdatOptions(CdatConfig c, int of, boolean hpux) {
        CdatOptions o = new CdatOptions();
        o.memoryFile = memory;
        o.hpux = hpux;
        o.check = check;
        o.json = json;
        o.suffix = of > 1 ? c.name : null;
        return o;
    }

    private void writeObject(ObjectOutputStream out) throws IOException {
        out.defaultWriteObject();
        out.writeObject(memory == null ? null : memory.toAbsolutePath().toString());
    }

    private void readObject(ObjectInputStream in) throws IOException, ClassNotFoundException {
        in.defaultReadObject();
        String m = (String) in.readObject();
        memory = m == null ? null : Path.of(m);
        configs = new ArrayList<>();
    }
}
