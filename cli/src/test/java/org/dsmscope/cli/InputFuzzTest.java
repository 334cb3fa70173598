package org.dsmscope.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.function.Function;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Mutated inputs through the real commands, in process (issue 23, "done when"): valid trace files (normal and
 * zstd), CDAT configurations, CIAT event traces, Lackey logs and monitor recordings, truncated, with a flipped
 * byte, with bytes appended, with two pieces swapped, emptied, or replaced by a directory or a device. For every
 * case: exit 0 or 2, never a stack trace, never a hang; exit 2 is one line naming the input; an input is never
 * changed on disk; where the mutation is harmless, or must be detected (a cut-short or appended trace, anything in
 * a compressed one), exit 0 gives exactly the unmutated input's output. A seeded loop, so a failure replays.
 */
class InputFuzzTest {
    @TempDir
    Path dir;

    /** Cases per input kind and mutation seed. */
    private static final int CASES = 12;
    private static final long SEED = 23;

    /** How a mutation changed the bytes: whether a command must still give the unmutated output if it exits 0. */
    enum Effect {
        /** The same content: exit 0 with the same output. */
        HARMLESS,
        /** A change the format detects (end record, checksums): exit 2, or by chance the same output. */
        DETECTABLE,
        /** A change that can make another valid input (a flipped address in an uncompressed trace). */
        ANY
    }

    /** One mutated input. */
    record Mutant(String what, byte[] bytes, Effect effect, String special) {
    }

    /** The mutations of {@code b} for case {@code k}; {@code text}: swap lines rather than 8-byte records. */
    private static Mutant mutate(byte[] b, int k, Random rnd, boolean text, boolean checked) {
        Effect changed = checked ? Effect.DETECTABLE : Effect.ANY;
        switch (k % 8) {
            case 0:
                return new Mutant("unchanged", b.clone(), Effect.HARMLESS, null);
            case 1: {
                int at = b.length <= 1 ? 0 : rnd.nextInt(b.length - 1) + 1;
                at = rnd.nextBoolean() && !text ? at & ~7 : at; // at a record boundary, or anywhere
                // a text input cut at a line end can be a shorter valid one; a binary one has its end record or
                // trailer
                return new Mutant("truncated at " + at, Arrays.copyOf(b, at), text ? Effect.ANY : Effect.DETECTABLE,
                        null);
            }
            case 2: {
                byte[] m = b.clone();
                int at = rnd.nextInt(m.length);
                m[at] ^= (byte) (1 << rnd.nextInt(8));
                return new Mutant("bit flipped at " + at, m, changed, null);
            }
            case 3: {
                byte[] tail = new byte[1 + rnd.nextInt(24)];
                rnd.nextBytes(tail);
                if (rnd.nextBoolean()) {
                    System.arraycopy(b, 0, tail, 0, Math.min(tail.length, b.length));
                }
                byte[] m = Arrays.copyOf(b, b.length + tail.length);
                System.arraycopy(tail, 0, m, b.length, tail.length);
                return new Mutant("appended " + tail.length + " bytes", m, text ? Effect.ANY : Effect.DETECTABLE,
                        null);
            }
            case 4:
                return text ? swapLines(b, rnd, changed) : swapRecords(b, rnd, changed);
            case 5:
                return new Mutant("emptied", new byte[0], text ? Effect.ANY : Effect.DETECTABLE, null);
            case 6:
                return new Mutant("a directory", null, Effect.DETECTABLE, "dir");
            default:
                return new Mutant("a link to /dev/zero", null, Effect.DETECTABLE, "zero");
        }
    }

    private static Mutant swapRecords(byte[] b, Random rnd, Effect changed) {
        byte[] m = b.clone();
        int n = m.length / 8;
        int i = rnd.nextInt(n);
        int j = rnd.nextInt(n);
        byte[] t = Arrays.copyOfRange(m, 8 * i, 8 * i + 8);
        System.arraycopy(m, 8 * j, m, 8 * i, 8);
        System.arraycopy(t, 0, m, 8 * j, 8);
        return new Mutant("records " + i + " and " + j + " swapped", m, i == j ? Effect.HARMLESS : changed, null);
    }

    private static Mutant swapLines(byte[] b, Random rnd, Effect changed) {
        List<String> lines = new ArrayList<>(List.of(new String(b, StandardCharsets.ISO_8859_1).split("\n", -1)));
        int i = rnd.nextInt(lines.size());
        int j = rnd.nextInt(lines.size());
        String t = lines.get(i);
        lines.set(i, lines.get(j));
        lines.set(j, t);
        return new Mutant("lines " + (i + 1) + " and " + (j + 1) + " swapped",
                String.join("\n", lines).getBytes(StandardCharsets.ISO_8859_1), i == j ? Effect.HARMLESS : changed,
                null);
    }

    /** Puts the mutant in place of {@code f}. */
    private static void place(Path f, Mutant m) throws IOException {
        Files.deleteIfExists(f);
        if ("dir".equals(m.special())) {
            Files.createDirectory(f);
        } else if ("zero".equals(m.special())) {
            Files.createSymbolicLink(f, Path.of("/dev/zero"));
        } else {
            Files.write(f, m.bytes());
        }
    }

    /** The bytes of every regular file in {@code d} (to see that no input changed). */
    private static List<byte[]> snapshot(List<Path> inputs) throws IOException {
        List<byte[]> s = new ArrayList<>();
        for (Path p : inputs) {
            s.add(Files.isRegularFile(p, java.nio.file.LinkOption.NOFOLLOW_LINKS) ? Files.readAllBytes(p) : null);
        }
        return s;
    }

    /**
     * Runs {@code args} (built from the case folder) on every mutant of {@code target} (a file in {@code template},
     * copied with the rest of {@code template} for each case) and checks the rules of the class comment.
     */
    private void fuzz(String kind, Path template, String target, boolean text, boolean checked,
            Function<Path, String[]> args, List<String> inputs) throws IOException {
        Random rnd = new Random(SEED ^ kind.hashCode());
        String baseline = null;
        int refused = 0;
        byte[] original = Files.readAllBytes(template.resolve(target));
        for (int k = 0; k < CASES; k++) {
            Path c = dir.resolve(kind + "-" + k);
            copyTree(template, c);
            Mutant m = k == 0 ? new Mutant("unchanged", original.clone(), Effect.HARMLESS, null)
                    : mutate(original, k, rnd, text, checked);
            Path f = c.resolve(target);
            place(f, m);
            List<Path> ins = new ArrayList<>();
            for (String in : inputs) {
                ins.add(c.resolve(in));
            }
            List<byte[]> before = snapshot(ins);
            String[] a = args.apply(c);
            String label = kind + " case " + k + " (" + m.what() + "): " + String.join(" ", a);
            CiatCommandTest.Run r = assertTimeoutPreemptively(Duration.ofSeconds(30), () -> CiatCommandTest.run(a),
                    label + ": hangs");
            String out = r.out().replace(c.toString(), "D");
            assertFalse(r.err().contains("\tat ") || r.err().contains("Exception"), label + ": " + r.err());
            assertTrue(r.status() == 0 || r.status() == 2, label + ": exit " + r.status() + ": " + r.err());
            List<byte[]> after = snapshot(ins);
            for (int i = 0; i < ins.size(); i++) {
                assertArrayEquals(before.get(i), after.get(i), label + ": " + ins.get(i) + " changed on disk");
            }
            if (k == 0) {
                assertEquals(0, r.status(), label + ": " + r.err());
                baseline = out;
                continue;
            }
            if (r.status() == 2) {
                refused++;
                assertEquals(1, r.err().lines().count(), label + ": " + r.err());
                assertTrue(r.err().startsWith("dsmscope: ") && r.err().contains(c.toString()),
                        label + ": the error names no input: " + r.err());
            } else if (m.effect() != Effect.ANY) {
                assertEquals(baseline, out, label + ": exit 0 with another result");
            }
        }
        // the empty, directory and device cases at least are refused: the loop saw both outcomes
        assertTrue(refused >= 3, kind + ": only " + refused + " mutants refused");
    }

    private static void copyTree(Path from, Path to) throws IOException {
        Files.createDirectories(to);
        try (Stream<Path> s = Files.list(from)) {
            for (Path p : s.toList()) {
                Files.copy(p, to.resolve(p.getFileName()));
            }
        }
    }

    private Path folder(String name) throws IOException {
        return Files.createDirectories(dir.resolve("template-" + name));
    }

    private static void ok(String... args) {
        CiatCommandTest.Run r = CiatCommandTest.run(args);
        assertEquals(0, r.status(), String.join(" ", args) + ": " + r.err());
    }

    @Test
    void mutatedInputs_areReadOrRefusedInOneLine_neverChanged() throws IOException {
        // trace sets, normal and zstd (the zstd file's content checksum detects any change)
        Path t = folder("trace");
        ok("gen", "forkjoin", "--threads", "2", "--instructions", "200", "--name", "g", "-o", t.toString());
        fuzz("trace", t, "g.2.1", false, false, c -> new String[] {"ciat", "--no-progress", c.resolve("g.2")
                .toString()}, List.of("g.2.0", "g.2.1"));
        Path z = folder("zstd");
        ok("convert", "--type", "compressed", t.resolve("g.2").toString(), "-o", z.resolve("z").toString());
        fuzz("zstd", z, "z.2.0", false, true, c -> new String[] {"dump", "--summary", c.resolve("z.2.0").toString()},
                List.of("z.2.0", "z.2.1"));
        // a CDAT configuration (a changed digit can be another valid machine)
        Path cf = folder("cdat");
        Files.copy(t.resolve("g.2.0"), cf.resolve("g.2.0"));
        Files.copy(t.resolve("g.2.1"), cf.resolve("g.2.1"));
        Files.copy(CdatCommandTest.config("dsm4.cfg"), cf.resolve("m.cfg"));
        fuzz("cdat", cf, "m.cfg", true, false, c -> new String[] {"cdat", "--no-progress", c.resolve("g.2")
                .toString(), c.resolve("m.cfg").toString()}, List.of("g.2.0", "g.2.1", "m.cfg"));
        // a CIAT event trace
        Path ev = folder("events");
        Files.copy(t.resolve("g.2.0"), ev.resolve("g.2.0"));
        Files.copy(t.resolve("g.2.1"), ev.resolve("g.2.1"));
        ok("ciat", "-ciat_events", ev.resolve("g.2").toString());
        fuzz("events", ev, "g.2.ciat_events", true, false, c -> new String[] {"tdat", c.resolve("g.2.ciat_events")
                .toString(), c.resolve("e.time").toString(), "1000", "2"}, List.of("g.2.ciat_events"));
        // a Lackey log
        Path lk = folder("lackey");
        try (InputStream in = getClass().getResourceAsStream("/pthreads-2.lackey")) {
            Files.copy(in, lk.resolve("run.lackey"));
        }
        fuzz("lackey", lk, "run.lackey", true, false, c -> new String[] {"import", "lackey", c.resolve("run.lackey")
                .toString(), "-o", c.resolve("imp").toString()}, List.of("run.lackey"));
        // a monitor recording (CRC-checked blocks)
        Path rc = folder("recording");
        RefusedValuesTest.recording(rc.resolve("r.dsmrec"), 200);
        fuzz("recording", rc, "r.dsmrec", false, true, c -> new String[] {"monitor", "summary", "--json",
            c.resolve("s.json").toString(), c.resolve("r.dsmrec").toString()}, List.of("r.dsmrec"));
    }
}
