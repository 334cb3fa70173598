package org.dsmscope.monitor.event;

import java.net.InetAddress;
import java.util.Objects;

/**
 * Where a monitored process runs: host name, architecture ({@code os.arch}), operating system, cores and JVM, as
 * the hosts graph of seed 002 §4.3 labels its icons ("host name and architecture"). Travels with the process's
 * name through the route, the recording ('H' block) and the live stream ({@code host} lines).
 */
public final class HostInfo {
    /** Text of a field that is not known (a recording made before hosts were recorded). */
    public static final String UNKNOWN = "unknown";
    private static volatile HostInfo local;

    /** Host name. */
    public final String host;
    /** {@code os.arch}, e.g. amd64, aarch64. */
    public final String arch;
    /** Operating system name and version. */
    public final String os;
    /** Processors available to the JVM. */
    public final int cores;
    /** JVM vendor and version. */
    public final String jvm;

    /** A host description; null strings become {@link #UNKNOWN}. */
    public HostInfo(String host, String arch, String os, int cores, String jvm) {
        this.host = host == null || host.isEmpty() ? UNKNOWN : host;
        this.arch = arch == null || arch.isEmpty() ? UNKNOWN : arch;
        this.os = os == null || os.isEmpty() ? UNKNOWN : os;
        this.cores = cores;
        this.jvm = jvm == null || jvm.isEmpty() ? UNKNOWN : jvm;
    }

    /** This JVM's host (computed once). */
    public static HostInfo local() {
        HostInfo h = local;
        if (h == null) {
            String name;
            try {
                name = InetAddress.getLocalHost().getHostName();
            } catch (java.io.IOException | SecurityException e) {
                name = System.getenv().getOrDefault("HOSTNAME", UNKNOWN);
            }
            h = new HostInfo(name, System.getProperty("os.arch"),
                    System.getProperty("os.name") + " " + System.getProperty("os.version"),
                    Runtime.getRuntime().availableProcessors(),
                    System.getProperty("java.vm.name") + " " + System.getProperty("java.version"));
            local = h;
        }
        return h;
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof HostInfo)) {
            return false;
        }
        HostInfo h = (HostInfo) o;
        return host.equals(h.host) && arch.equals(h.arch) && os.equals(h.os) && cores == h.cores
                && jvm.equals(h.jvm);
    }

    @Override
    public int hashCode() {
        return Objects.hash(host, arch, os, cores, jvm);
    }

    @Override
    public String toString() {
        return host + " (" + arch + ", " + os + ", " + cores + " cores, " + jvm + ")";
    }
}
