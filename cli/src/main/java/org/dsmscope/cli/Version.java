package org.dsmscope.cli;

import picocli.CommandLine;

/** Prints the version from the jar manifest (or "development" when run from classes). */
final class Version implements CommandLine.IVersionProvider {
    @Override
    public String[] getVersion() {
        String v = Main.class.getPackage().getImplementationVersion();
        return new String[] {"dsmscope " + (v == null ? "development" : v),
            "Java " + System.getProperty("java.version")};
    }
}
