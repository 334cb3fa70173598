package org.dsmscope.agent.core;

import java.util.Locale;
import java.util.Map;

/**
 * The agent's options (seed 000 §2): {@code -javaagent:dsmscope-agent.jar=level=2,type=normal,name=NAME} and the
 * environment variables {@code TRACE_FILE_TYPE}, {@code TRACE_FILE_NAME}, {@code CALL_FILE_NAME},
 * {@code CONFIGURATION_FILE_NAME}, and {@code CIAT_OPTIONS} (the options of {@code dsmscope ciat} for
 * {@code to_ciat}). Agent arguments override the environment.
 *
 * <p>Keys: {@code level} (1, 2, 3), {@code type} (normal, compressed, suppressed, to_ciat, to_cdat), {@code name}
 * (path prefix of the trace files), {@code calls} (call trace name, on-the-fly only), {@code config} (CDAT
 * configuration, on-the-fly only), {@code codec} (zstd or lz4 for compressed), {@code jdk} (true: level 2
 * also instruments {@code java.util} and {@code java.util.concurrent}), {@code quiet} (true: do not print
 * the file names at exit).
 */
public final class AgentOptions {
    /** Trace types of seed 000 §2. */
    public enum Type {
        /** One uncompressed file per thread. */
        NORMAL,
        /** One compressed file per thread. */
        COMPRESSED,
        /** No files. */
        SUPPRESSED,
        /** On-the-fly CIAT. */
        TO_CIAT,
        /** On-the-fly CDAT. */
        TO_CDAT
    }

    /** Instrumentation level 1, 2 or 3. */
    public int level = 1;
    /** Trace type. */
    public Type type = Type.NORMAL;
    /** Path prefix of the trace files. */
    public String name = "trace";
    /** CALL_FILE_NAME (on-the-fly analysis only). */
    public String calls;
    /** CONFIGURATION_FILE_NAME (on-the-fly CDAT only). */
    public String config;
    /** Codec name for compressed traces. */
    public String codec = "zstd";
    /**
     * to_ciat: the number of threads the run traces (main included), 0 if unknown. Known, it lets the analysis run
     * while the program runs; unknown, the analysis runs at the end of the run.
     */
    public int threads;
    /** Do not print the names of the files at exit. */
    public boolean quiet;
    /** Level 2: also instrument {@code java.util} and {@code java.util.concurrent} ({@code jdk=true}, issue 28). */
    public boolean jdk;
    /**
     * Options of the on-the-fly analysis: {@code CIAT_OPTIONS} (to_ciat) or {@code CDAT_OPTIONS} (to_cdat), split at
     * white space; to_cdat adds {@code --config CONFIGURATION_FILE_NAME}.
     */
    public java.util.List<String> analysisOptions = java.util.List.of();

    /** Parses the environment, then the agent argument string (null or empty: environment only). */
    public static AgentOptions parse(String args, Map<String, String> env) {
        AgentOptions o = new AgentOptions();
        if (env.get("TRACE_FILE_TYPE") != null) {
            o.type = parseType(env.get("TRACE_FILE_TYPE"), "TRACE_FILE_TYPE");
        }
        if (env.get("TRACE_FILE_NAME") != null && !env.get("TRACE_FILE_NAME").isEmpty()) {
            o.name = env.get("TRACE_FILE_NAME");
        }
        o.calls = env.get("CALL_FILE_NAME");
        o.config = env.get("CONFIGURATION_FILE_NAME");
        if (args != null && !args.isBlank()) {
            parseArgs(o, args);
        }
        String opts = env.get(o.type == Type.TO_CDAT ? "CDAT_OPTIONS" : "CIAT_OPTIONS");
        java.util.List<String> list = new java.util.ArrayList<>();
        if (opts != null && !opts.isBlank()) {
            list.addAll(java.util.List.of(opts.trim().split("\\s+")));
        }
        if (o.type == Type.TO_CDAT) {
            if (o.config == null || o.config.isEmpty()) {
                throw new IllegalArgumentException("trace type to_cdat simulates the machine of a configuration"
                        + " file: set CONFIGURATION_FILE_NAME (or the agent option config=FILE)");
            }
            list.add("--config");
            list.add(o.config);
        }
        o.analysisOptions = java.util.List.copyOf(list);
        return o;
    }

    private static void parseArgs(AgentOptions o, String args) {
        for (String part : args.split(",")) {
            if (part.isBlank()) {
                continue;
            }
            int eq = part.indexOf('=');
            if (eq <= 0) {
                throw new IllegalArgumentException("agent option '" + part + "' is not key=value");
            }
            String key = part.substring(0, eq).trim();
            String value = part.substring(eq + 1).trim();
            switch (key) {
                case "level":
                    if (!value.matches("[123]")) {
                        throw new IllegalArgumentException("unknown level '" + value + "' (expected 1, 2 or 3)");
                    }
                    o.level = Integer.parseInt(value);
                    break;
                case "type":
                    o.type = parseType(value, "type");
                    break;
                case "name":
                    if (value.isEmpty()) {
                        throw new IllegalArgumentException("empty trace name");
                    }
                    o.name = value;
                    break;
                case "calls":
                    o.calls = value;
                    break;
                case "config":
                    o.config = value;
                    break;
                case "codec":
                    if (!value.equalsIgnoreCase("zstd") && !value.equalsIgnoreCase("lz4")) {
                        throw new IllegalArgumentException("unknown codec '" + value + "' (expected zstd or lz4)");
                    }
                    o.codec = value.toLowerCase(Locale.ROOT);
                    break;
                case "threads":
                    try {
                        o.threads = Integer.parseInt(value);
                    } catch (NumberFormatException e) {
                        o.threads = -1;
                    }
                    if (o.threads < 1 || o.threads > 4096) {
                        throw new IllegalArgumentException("threads=" + value + ": expected a thread count 1..4096");
                    }
                    break;
                case "quiet":
                    o.quiet = Boolean.parseBoolean(value);
                    break;
                case "jdk":
                    if (!value.equalsIgnoreCase("true") && !value.equalsIgnoreCase("false")) {
                        throw new IllegalArgumentException("jdk=" + value + ": expected true or false");
                    }
                    o.jdk = Boolean.parseBoolean(value);
                    break;
                default:
                    throw new IllegalArgumentException("unknown agent option '" + key
                            + "' (expected level, type, name, calls, config, codec, threads, quiet, jdk)");
            }
        }
        if (o.jdk && o.level != 2) {
            throw new IllegalArgumentException("jdk=true traces the JDK's memory accesses: it needs level=2 (was "
                    + o.level + ")");
        }
    }

    /** True for the on-the-fly analyses, {@code to_ciat} and {@code to_cdat}. */
    public boolean onTheFly() {
        return type == Type.TO_CIAT || type == Type.TO_CDAT;
    }

    /** The on-the-fly analysis's type as seed 000 §2 spells it ({@code to_ciat}, {@code to_cdat}). */
    public String analysisType() {
        return type == Type.TO_CDAT ? "to_cdat" : "to_ciat";
    }

    /** The on-the-fly analysis's tool name, CIAT or CDAT. */
    public String analysisTool() {
        return type == Type.TO_CDAT ? "CDAT" : "CIAT";
    }

    /** Parses a trace type name as seed 000 §2 spells it. */
    public static Type parseType(String s, String what) {
        switch (s.trim().toLowerCase(Locale.ROOT)) {
            case "normal": return Type.NORMAL;
            case "compressed": return Type.COMPRESSED;
            case "suppressed": return Type.SUPPRESSED;
            case "to_ciat": return Type.TO_CIAT;
            case "to_cdat": return Type.TO_CDAT;
            default:
                throw new IllegalArgumentException("unknown trace type '" + s + "' in " + what
                        + " (expected normal, compressed, suppressed, to_ciat or to_cdat)");
        }
    }
}
