package org.dsmscope.cdat;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.dsmscope.cdat.config.CdatConfig;
import org.dsmscope.cdat.config.ThreadMap;
import org.dsmscope.trace.cdat.TrafficReader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Seed 000 Appendix C's general-trace example, {@code 11351 277248 2 0 3 1 2 4 0 0 1 0 0 0 0 0 -1}: "at clock 11351
 * processor 0 of node 3 has a load miss for the line 277248 which has home at bank 1 of node 2. This line is dirty in
 * proc 2 of node 0 (assuming 4 processors per node)". Reproduced on 4 nodes of 4 processors (1 KiB pages: page 270
 * is at node 270 mod 4 = 2; 128-byte lines and 5 banks: line 2166 is in bank 2166 mod 5 = 1); our record lists all
 * 16 processors, the seed's example the first 8.
 */
class SeedExampleTest {
    @TempDir
    Path dir;

    @Test
    void appendixCGeneralRecord() throws Exception {
        CdatConfig cfg = CdatConfig.builder().nodes(4).processorsPerNode(4).banksPerNode(5).lineSize(128)
                .pageSize(1024).protocol(1).threadMap(ThreadMap.FILL).generalTrace(true).build();
        Sim s = new Sim(cfg, 16, dir);
        s.store(2, 11000, 277248); // processor 2 of node 0: the line becomes dirty there
        s.load(12, 11351, 277248); // processor 0 of node 3
        s.end();
        String seed = "11351 277248 2 0 3 1 2 4 0 0 1 0 0 0 0 0 -1";
        assertEquals(List.of("11351 277248 2 0 3 1 2 4 0 0 1 0 0 0 0 0 0 0 0 0 0 0 0 0 -1"), s.general("12"));

        // the reader takes the seed's shorter sharing list as it is
        Path f = dir.resolve("seed.cdat_general.0");
        Files.writeString(f, seed + "\n");
        List<String> got = new ArrayList<>();
        TrafficReader.readGeneral(f, r -> got.add(r.clock + " " + r.addr + " " + r.code + " " + r.f[0] + " "
                + r.f[1] + " " + r.f[2] + " " + r.f[3] + " " + r.status + " " + r.sharingLength + " " + r.sharing[2]));
        assertEquals(List.of("11351 277248 2 0 3 1 2 4 8 1"), got);
    }
}
