package org.dsmscope.cdat;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.List;
import org.dsmscope.cdat.report.CdatJson;
import org.dsmscope.cdat.report.CdatTextReport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The report's tagged lines and the JSON names (cdat/README.md "Report", "JSON") on a run small enough to count. */
class ReportTest {
    @TempDir
    Path dir;

    /** Processor 1 stores a line homed at node 0, processor 0 loads it twice: one c2c transfer, one hit. */
    private CdatResult run() {
        Sim s = new Sim(ProtocolTest.machine(2, 1, 1).build(), 2, dir);
        s.store(1, 1, 64).load(0, 7, 64).load(0, 8, 64);
        return s.end();
    }

    @Test
    void taggedLines() throws Exception {
        StringWriter w = new StringWriter();
        CdatTextReport.write(run(), w);
        List<String> lines = List.of(w.toString().split("\n"));
        assertEquals("# dsmscope-cdat-report 1", lines.get(0));
        assertTrue(lines.contains("# config protocol = 1"), lines.toString());
        assertTrue(lines.contains("# protocol variant 1: remote lines maybe loaded exclusive, exclusive replacement"
                + " announced, direct transactions supported"));
        assertTrue(lines.contains("# threads 2 replay_processors 2 processors 2 io_processors 0 phases 1"));
        // processor 1's store miss reaches node 0's memory, processor 0's load node 1's cache: both remote
        assertTrue(lines.contains("RxTxL02: data accesses 3 hits 1 33.33% misses 2 66.67% local 0 0.00% remote 2"
                + " 100.00% local_memory 0 0.00% local_cache 0 0.00% remote_memory 1 50.00% remote_cache 1 50.00%"),
                w.toString());
        assertTrue(lines.contains("RxTxL05: transactions 6 requests 2 critical_path 5 average_latency 2.5000"),
                w.toString());
        assertTrue(lines.contains("RxTxL06: 41 c2c_data_shar 1"));
        assertTrue(lines.contains("RxTxL06: 42 c2c_data_priv 0"));
        assertTrue(lines.contains("RxTxL07: home presence status read_shar read_shar_or_priv read_priv_own req_inv"
                + " read_current write_purge write_back update_tag"));
        // processor 1's store miss: home node 0 is remote to it, line only at home, idle; processor 0's load:
        // home local, the line in a cache of another node, dirty
        assertTrue(lines.contains("RxTxL07: remote home idle 0 0 1 0 0 0 0 0"));
        assertTrue(lines.contains("RxTxL07: local remote dirty 0 1 0 0 0 0 0 0"));
        assertTrue(lines.contains("RxTxL11: lines 1 first_touched_pages 0"));
        assertEquals(24 + 1, lines.stream().filter(l -> l.startsWith("RxTxL07: ")).count());
        assertEquals(26, lines.stream().filter(l -> l.startsWith("R1TxL06: ")).count(), "every code, per phase");
    }

    @Test
    void jsonNames() {
        JsonNode j = new ObjectMapper().valueToTree(CdatJson.tree(run()));
        assertEquals("dsmscope-cdat 1", j.path("format").asText());
        JsonNode a = j.path("aggregate");
        assertEquals(1, a.path("streams").path("data").path("remoteCache").asLong());
        assertEquals(1, a.path("byType").path("c2c_data_shar").asLong());
        assertEquals(2.5, a.path("averageLatency").asDouble());
        assertEquals(24, a.path("stateTable").path("rows").size());
        assertEquals(2, a.path("processorActivity").size());
        assertEquals("2", j.path("config").path("nodes").asText());
        assertEquals(1, j.path("phases").size());
    }
}
