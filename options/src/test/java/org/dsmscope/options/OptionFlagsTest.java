package org.dsmscope.options;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import org.dsmscope.cdat.CdatOptions;
import org.dsmscope.cdat.config.CdatConfig;
import org.dsmscope.ciat.CiatOptions;
import org.dsmscope.ciat.age.AccessAge;
import org.dsmscope.replay.ReplayOptions;
import org.dsmscope.trace.BadInputException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * The shared option groups (seed 000 Appendix B): each option reaches its field of {@link ReplayOptions}, {@link
 * CiatOptions} or {@link CdatOptions}, bad values are refused in one line naming the option, the help keeps the
 * groups' declaration order, and the groups survive the Java serialization that ships them to Spark tasks.
 */
class OptionFlagsTest {
    @TempDir
    Path dir;

    /** A command made of the groups, in the order cli's ciat mixes them in. */
    @Command(name = "c", sortOptions = false)
    static final class Ciat {
        @CommandLine.Mixin
        ReplayFlags replay = new ReplayFlags();
        @CommandLine.Option(names = "--between")
        boolean between;
        @CommandLine.Mixin
        ReadFlags read = new ReadFlags();
        @CommandLine.Mixin
        CiatFlags ciat = new CiatFlags();
    }

    /** A command made of the groups, in the order cli's cdat mixes them in. */
    @Command(name = "d", sortOptions = false)
    static final class Cdat {
        @CommandLine.Mixin
        ReplayFlags replay = new ReplayFlags();
        @CommandLine.Mixin
        ReadFlags read = new ReadFlags();
        @CommandLine.Mixin
        CdatFlags cdat = new CdatFlags();
    }

    private static Ciat parse(String... args) {
        Ciat b = new Ciat();
        new CommandLine(b).parseArgs(args);
        return b;
    }

    private static Cdat parseCdat(String... args) {
        Cdat b = new Cdat();
        new CommandLine(b).parseArgs(args);
        return b;
    }

    @Test
    void noOptions_giveTheAnalysesDefaults() {
        Ciat b = parse();
        ReplayOptions o = b.replay.replayOptions(b.read);
        ReplayOptions d = new ReplayOptions();
        assertEquals(d.parallelStart, o.parallelStart);
        assertEquals(d.interleave, o.interleave);
        assertEquals(d.sliceLength, o.sliceLength);
        assertEquals(d.dmaBandwidth, o.dmaBandwidth);
        assertEquals(d.diskLatency, o.diskLatency);
        assertEquals(d.ipc, o.ipc);
        assertEquals(d.mhz, o.mhz);
        assertEquals(d.exactStream, o.exactStream);
        assertEquals(d.skipBadRecords, o.skipBadRecords);
        assertNull(o.byteOrder);
        CiatOptions c = b.ciat.ciatOptions(false);
        CiatOptions cd = new CiatOptions();
        assertEquals(cd.ageScope, c.ageScope);
        assertEquals(cd.ageGranularity, c.ageGranularity);
        assertEquals(cd.sampleRate, c.sampleRate);
        assertEquals(cd.busy1, c.busy1);
        assertFalse(c.events);
        assertNull(c.json);
    }

    @Test
    void everyReplayOption_reachesItsField() {
        Ciat b = parse("-p", "-i", "3", "-a", "-rr_interleaving", "-k", "-s", "500", "-handle_io", "-buffered_io",
                "-asynch_io", "-distributed_io", "-dma_bw", "40", "-disk_latency", "5", "-ipc", "1.5", "-mhz", "200",
                "--byte-order", "little", "--seed-stream", "-HPUX", "--skip-bad-records");
        ReplayOptions o = b.replay.replayOptions(b.read);
        assertTrue(o.skipBadRecords);
        assertTrue(o.parallelStart && o.affinity && o.rrInterleaving && o.keepLongSlices && o.handleIo
                && o.bufferedIo && o.asynchIo && o.distributedIo);
        assertEquals(3, o.interleave);
        assertEquals(500, o.sliceLength);
        assertEquals(40, o.dmaBandwidth);
        assertEquals(5, o.diskLatency);
        assertEquals(1.5, o.ipc);
        assertEquals(200, o.mhz);
        assertEquals(ByteOrder.LITTLE_ENDIAN, o.byteOrder);
        assertFalse(o.exactStream);
        assertTrue(b.replay.hpux());
        o.validate();
    }

    @Test
    void everyCiatOption_reachesItsField_andHpuxAddsItsRanges() {
        Path json = dir.resolve("r.json");
        Ciat b = parse("-ciat_events", "--json", json.toString(), "--age-scope", "GLOBAL", "--age-granularity", "64",
                "--sample", "0.5", "--busy1", "99", "--spin-as-wait", "--private-range", "0x1000-0x1fff",
                "--shared-range", "0x2000-0x2fff");
        CiatOptions o = b.ciat.ciatOptions(false);
        assertTrue(o.events && o.spinAsWait);
        assertEquals(json, o.json);
        assertEquals(AccessAge.Scope.GLOBAL, o.ageScope);
        assertEquals(64, o.ageGranularity);
        assertEquals(0.5, o.sampleRate);
        assertEquals(99, o.busy1);
        assertTrue(!o.ranges.inSharedRange(0x1800) && o.ranges.inSharedRange(0x2800));
        assertTrue(o.ranges.inSharedRange(0x40000000L));
        assertFalse(b.ciat.ciatOptions(true).ranges.inSharedRange(0x40000000L), "-HPUX's private range");
        o.validate();
    }

    @Test
    void badValues_areOneLineNamingTheOption() {
        BadInputException scope = assertThrows(BadInputException.class,
                () -> parse("--age-scope", "cluster").ciat.ciatOptions(false));
        assertEquals("option --age-scope: 'cluster' is not thread or global", scope.getMessage());
        BadInputException range = assertThrows(BadInputException.class,
                () -> parse("--shared-range", "0x20-0x10").ciat.ciatOptions(false));
        assertTrue(range.getMessage().startsWith("option --shared-range: "), range.getMessage());
        BadInputException order = assertThrows(BadInputException.class, () -> {
            Ciat b = parse("--byte-order", "middle");
            b.replay.replayOptions(b.read);
        });
        assertEquals("unknown byte order 'middle' (expected big or little)", order.getMessage());
        assertEquals("option --partitions: value 2000 out of range (0..1024)",
                assertThrows(BadInputException.class, () -> Partitions.count(2000, 4)).getMessage());
        assertEquals("option --partitions: value -1 out of range (0..1024)",
                assertThrows(BadInputException.class, () -> Partitions.count(-1, 4)).getMessage());
        assertEquals(4, Partitions.count(0, 4));
        assertEquals(7, Partitions.count(7, 4));
    }

    @Test
    void optionsThatChangeNothing_areWarnedAbout() {
        Ciat b = new Ciat();
        CommandLine cl = new CommandLine(b);
        StringWriter err = new StringWriter();
        cl.setErr(new PrintWriter(err));
        cl.parseArgs("-s", "100", "-dma_bw", "30");
        b.replay.warnUnused(cl.getCommandSpec());
        assertEquals(List.of("dsmscope: warning: option -s has no effect without -i",
                "dsmscope: warning: option -dma_bw has no effect without -handle_io"), err.toString().lines()
                .collect(Collectors.toList()));
    }

    @Test
    void help_keepsEachGroupsOrder_withACommandsOwnOptionBetweenGroups() {
        List<String> names = new ArrayList<>();
        for (CommandLine.Model.OptionSpec o : new CommandLine(new Ciat()).getCommandSpec().options()) {
            names.add(o.longestName());
        }
        assertEquals(List.of("-HPUX", "-p", "-i", "-a", "-rr_interleaving", "-k", "-s", "-handle_io", "-buffered_io",
                "-asynch_io", "-distributed_io", "-dma_bw", "-disk_latency", "-ipc", "-mhz", "--between",
                "--skip-bad-records", "--byte-order", "--seed-stream", "-ciat_events", "--json", "--age-scope", "--age-granularity",
                "--sample", "--busy1", "--spin-as-wait", "--private-range", "--shared-range"), names);
    }

    @Test
    void configurations_areTheConfigFilesOrTheLastArgument_withDistinctNames() throws IOException {
        Path a = Files.writeString(dir.resolve("a.cfg"), "dsmscope-cdat-config 1\nname = a\nnodes = 2\n"
                + "processors_per_node = 2\n");
        Path b = Files.writeString(dir.resolve("b.cfg"), "dsmscope-cdat-config 1\nname = a\nnodes = 1\n"
                + "processors_per_node = 2\n");
        Cdat last = parseCdat();
        List<String> args = new ArrayList<>(List.of("fj.4", a.toString()));
        assertEquals(List.of(a), last.cdat.configFiles(args, 2, "cdat", "U"));
        assertEquals(List.of("fj.4"), args, "the configuration is taken off the trace sets");
        assertEquals("cdat: no configuration file given; usage: U", assertThrows(BadInputException.class,
                () -> last.cdat.configFiles(new ArrayList<>(List.of("fj.4")), 2, "cdat", "U")).getMessage());
        Cdat given = parseCdat("--config", a.toString(), "--config", b.toString());
        List<Path> files = given.cdat.configFiles(new ArrayList<>(List.of("fj.4")), 2, "cdat", "U");
        assertEquals(List.of(a, b), files);
        assertTrue(assertThrows(BadInputException.class, () -> given.cdat.configurations(files, "cluster cdat"))
                .getMessage().startsWith("cluster cdat: two configurations are named 'a'"));
        Cdat json = parseCdat("--json", "x.json", "--config", a.toString(), "--config", a.toString());
        // one name twice is refused first; two names with --json are refused for the JSON
        Path c = Files.writeString(dir.resolve("c.cfg"), "dsmscope-cdat-config 1\nname = c\nnodes = 2\n"
                + "processors_per_node = 2\n");
        assertEquals("option --json: one file per configuration; give one configuration",
                assertThrows(BadInputException.class, () -> json.cdat.configurations(List.of(a, c), "cdat"))
                        .getMessage());
        CdatConfig cfg = given.cdat.configurations(List.of(a), "cdat").get(0);
        CdatOptions o = parseCdat("--memory", "m.memory", "--check").cdat.cdatOptions(cfg, 2, true);
        assertEquals(Path.of("m.memory"), o.memoryFile);
        assertTrue(o.check && o.hpux);
        assertEquals("a", o.suffix, "outputs named by the configuration when there are several");
        assertNull(given.cdat.cdatOptions(cfg, 1, false).suffix);
    }

    @Test
    void shippedToATask_theGroupsGiveTheSameOptions_theMemoryFileAbsolute_theDriversFilesDropped()
            throws Exception {
        Ciat b = parse("-i", "2", "-s", "300", "--seed-stream", "--age-scope", "global", "--json", "r.json",
                "--private-range", "0x0-0xfff");
        ReplayFlags replay = roundTrip(b.replay);
        ReadFlags read = roundTrip(b.read);
        CiatFlags ciat = roundTrip(b.ciat);
        CdatFlags cdat = roundTrip(parseCdat("--memory", "m.memory", "--check", "--json", "r.json").cdat);
        ReplayOptions o = replay.replayOptions(read);
        assertEquals(2, o.interleave);
        assertEquals(300, o.sliceLength);
        assertFalse(o.exactStream);
        CiatOptions c = ciat.ciatOptions(false);
        assertEquals(AccessAge.Scope.GLOBAL, c.ageScope);
        assertTrue(!c.ranges.inSharedRange(0x800) && c.ranges.inSharedRange(0x5000));
        assertNull(ciat.json(), "the driver writes the JSON");
        assertEquals(Path.of("m.memory").toAbsolutePath(), cdat.memory());
        assertNull(cdat.json());
        assertTrue(cdat.cdatOptions(CdatConfig.parse("n", "dsmscope-cdat-config 1\nnodes = 1\n"
                + "processors_per_node = 1\n"), 1, false).check);
    }

    @SuppressWarnings("unchecked")
    private static <T> T roundTrip(T o) throws IOException, ClassNotFoundException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
            out.writeObject(o);
        }
        try (ObjectInputStream in = new ObjectInputStream(new ByteArrayInputStream(bytes.toByteArray()))) {
            return (T) in.readObject();
        }
    }
}
