package org.dsmscope.cdat;

import java.nio.file.Path;

/** What a CDAT run is asked for beside its configuration (the command's options). */
public final class CdatOptions {
    /** The memory usage file RR2 and Oracle read (default: {@code NAME.p.memory} beside the traces). */
    public Path memoryFile;
    /** {@code -HPUX}: under RR1, pages of the private range 0x40000000&ndash;0x7fffffff are placed locally. */
    public boolean hpux;
    /** Run the coherence checker beside the simulation ({@code --check}). */
    public boolean check;
    /** Write the report and the traces the configuration asks for (off in tests that look at results only). */
    public boolean writeFiles = true;
    /** Also write the results as JSON here. */
    public Path json;
    /**
     * Inserted in every output name after {@code NAME.p} ({@code NAME.p.SUFFIX.cdat_report}) when several
     * configurations are simulated in one run; null for one.
     */
    public String suffix;

    /** A copy. */
    public CdatOptions copy() {
        CdatOptions o = new CdatOptions();
        o.memoryFile = memoryFile;
        o.hpux = hpux;
        o.check = check;
        o.writeFiles = writeFiles;
        o.json = json;
        o.suffix = suffix;
        return o;
    }
}
