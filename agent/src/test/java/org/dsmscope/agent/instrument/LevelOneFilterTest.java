package org.dsmscope.agent.instrument;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Level 1's pre-check must never skip a class the full pass would change: for every class of the test programs
 * and of the agent itself, "no" from the filter implies that {@link ClassInstrumenter} leaves the class unchanged.
 */
class LevelOneFilterTest {
    private static List<Path> classes(String dir) throws Exception {
        try (Stream<Path> s = Files.walk(Paths.get(dir))) {
            return s.filter(p -> p.toString().endsWith(".class")).collect(Collectors.toList());
        }
    }

    @Test
    void aClassTheFilterSkips_isOneTheFullPassLeavesUnchanged() throws Exception {
        int skipped = 0;
        int kept = 0;
        for (String dir : new String[] {"target/test-classes", "target/classes"}) {
            for (Path p : classes(dir)) {
                byte[] b = Files.readAllBytes(p);
                if (LevelOneFilter.mayNeedRewrite(b)) {
                    kept++;
                } else {
                    skipped++;
                    assertNull(ClassInstrumenter.instrument(b, 1), p + " skipped by the filter but changed by level 1");
                }
            }
        }
        assertTrue(skipped > 20 && kept > 5, "skipped " + skipped + ", kept " + kept);
    }

    @Test
    void synchronizedBlocksMethodsAndIntercepted_calls_areKept() throws Exception {
        for (String prog : new String[] {"LockProg", "SyncProg", "WaitProg", "FileProg"}) {
            assertTrue(LevelOneFilter.mayNeedRewrite(
                    Files.readAllBytes(Paths.get("target/test-classes/org/dsmscope/progs/" + prog + ".class"))), prog);
        }
        assertFalse(LevelOneFilter.mayNeedRewrite(
                Files.readAllBytes(Paths.get("target/test-classes/org/dsmscope/progs/MatMul.class"))));
    }
}
