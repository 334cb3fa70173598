package org.dsmscope.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** End to end: members as separate JVMs on loopback, recorded, summarized; bad recordings rejected clearly. */
class DsmRunCommandTest {
    @TempDir
    Path dir;

    private static int run(StringWriter err, String... args) {
        return Main.commandLine().setErr(new PrintWriter(err, true)).execute(args);
    }

    @Test
    @Timeout(120)
    void separateJvmsOnLoopback_runRecordAndSummarize() throws Exception {
        Path rec = dir.resolve("mm.dsmrec");
        StringWriter err = new StringWriter();
        int rc = run(err, "dsm", "run", "--members", "3", "--loss", "0.03", "--record", rec.toString(),
                "--timeout", "90", "--", "org.dsmscope.examples.dsm.MatMul", "24");
        assertEquals(0, rc, err.toString());
        Path json = dir.resolve("s.json");
        assertEquals(0, run(err, "monitor", "summary", rec.toString(), "--json", json.toString()), err.toString());
        JsonNode s = new ObjectMapper().readTree(json.toFile());
        assertEquals(3, s.get("processes").size());
        assertTrue(s.get("eventCounts").get("Advance").asLong() >= 3 + 1);
        assertTrue(s.get("eventCounts").get("Frag_Send").asLong() > 0);
        assertTrue(s.get("eventCounts").get("Msg_Receive_End").asLong() > 0);
        long ended = 0;
        for (JsonNode t : s.get("processTimes")) {
            ended += t.get("ended").asBoolean() ? 1 : 0;
        }
        assertEquals(3, ended);
    }

    @Test
    @Timeout(120)
    void levelsProgramOnly_recordsNoMessageOrTransportEvents() throws Exception {
        Path rec = dir.resolve("prog.dsmrec");
        StringWriter err = new StringWriter();
        int rc = run(err, "dsm", "run", "--members", "3", "--levels", "program", "--record", rec.toString(),
                "--timeout", "90", "--", "org.dsmscope.examples.dsm.MatMul", "24");
        assertEquals(0, rc, err.toString());
        Path json = dir.resolve("p.json");
        assertEquals(0, run(err, "monitor", "summary", rec.toString(), "--json", json.toString()), err.toString());
        JsonNode counts = new ObjectMapper().readTree(json.toFile()).get("eventCounts");
        assertTrue(counts.path("Advance").asLong() > 0, counts.toString());
        assertEquals(0, counts.path("Frag_Send").asLong(), counts.toString());
        assertEquals(0, counts.path("Msg_Send_Begin").asLong(), counts.toString());
    }

    @Test
    void control_withoutRecord_exit2() {
        StringWriter err = new StringWriter();
        assertEquals(2, run(err, "dsm", "run", "--control", "--", "org.dsmscope.examples.dsm.MatMul", "16"));
        assertTrue(err.toString().contains("--control switches recorded levels: it needs --record FILE"),
                err.toString());
    }

    @Test
    void unknownLevel_exit2() {
        StringWriter err = new StringWriter();
        assertEquals(2, run(err, "dsm", "run", "--levels", "tcp", "--record", dir.resolve("x").toString(), "--",
                "org.dsmscope.examples.dsm.MatMul", "16"));
        assertTrue(err.toString().contains("unknown monitoring level 'tcp'"), err.toString());
    }

    @Test
    @Timeout(120)
    void memberKilledMidRun_othersFinish_launcherSaysSo_recordingReadable() throws Exception {
        Path rec = dir.resolve("kill.dsmrec");
        StringWriter err = new StringWriter();
        java.io.ByteArrayOutputStream errBytes = new java.io.ByteArrayOutputStream();
        java.io.PrintStream old = System.err;
        int rc;
        try {
            System.setErr(new java.io.PrintStream(errBytes, true, "UTF-8"));
            rc = run(err, "dsm", "run", "--members", "3", "--record", rec.toString(), "--timeout", "90", "--",
                    KillApp.class.getName());
        } finally {
            System.setErr(old);
        }
        String msgs = errBytes.toString("UTF-8");
        assertEquals(1, rc, msgs);
        assertTrue(msgs.contains("member m2 exited with status 137"), msgs);
        assertFalse(msgs.contains("member m0 exited") || msgs.contains("member m1 exited"), msgs);
        Path json = dir.resolve("k.json");
        assertEquals(0, run(err, "monitor", "summary", rec.toString(), "--json", json.toString()), err.toString());
        JsonNode s = new ObjectMapper().readTree(json.toFile());
        for (JsonNode t : s.get("processTimes")) {
            assertEquals(t.get("process").asInt() != 2, t.get("ended").asBoolean(), t.toString());
        }
    }

    @Test
    void truncatedRecording_exit2WithTheOffset_partialSummarizesUpToIt() throws Exception {
        Path rec = dir.resolve("r.dsmrec");
        try (org.dsmscope.monitor.record.Recorder r = new org.dsmscope.monitor.record.Recorder(rec)) {
            org.dsmscope.monitor.event.EventBuffer b = new org.dsmscope.monitor.event.EventBuffer(20_000);
            for (int i = 0; i < 20_000; i++) {
                b.add(1_000_000L * i, i % 2, org.dsmscope.monitor.event.EventType.ADVANCE.code, -1, 0, i, 0, 10, 0);
            }
            r.process(0, "m0");
            r.process(1, "m1");
            r.accept(b);
        }
        byte[] all = Files.readAllBytes(rec);
        Path cut = dir.resolve("cut.dsmrec");
        Files.write(cut, java.util.Arrays.copyOf(all, all.length - 100));
        StringWriter err = new StringWriter();
        assertEquals(2, run(err, "monitor", "summary", cut.toString()));
        assertTrue(err.toString().startsWith("dsmscope: " + cut) && err.toString().contains("byte "), err.toString());
        assertEquals(1, err.toString().lines().count(), err.toString());
        StringWriter err2 = new StringWriter();
        assertEquals(0, run(err2, "monitor", "summary", "--partial", cut.toString()), err2.toString());
    }

    @Test
    void missingRecording_andBadMembers_areUserErrors() {
        StringWriter err = new StringWriter();
        assertEquals(2, run(err, "monitor", "summary", dir.resolve("nope.dsmrec").toString()));
        assertEquals(2, run(err, "dsm", "run", "--members", "0", "--", "org.dsmscope.examples.dsm.Sor"));
        assertEquals(2, run(err, "dsm", "run", "--", "no.such.Clazz"));
        assertTrue(err.toString().contains("no such class"), err.toString());
    }

    @Test
    @Timeout(60)
    void liveOptionsOutOfRange_andWatchWithNothingToWatch_areUserErrors() throws Exception {
        StringWriter err = new StringWriter();
        assertEquals(2, run(err, "dsm", "run", "--live", "70000", "--", "org.dsmscope.examples.dsm.MatMul", "16"));
        assertTrue(err.toString().contains("--live must be a port"), err.toString());
        assertEquals(2, run(err, "dsm", "run", "--live", "0", "--live-queue", "0", "--",
                "org.dsmscope.examples.dsm.MatMul", "16"));
        assertEquals(2, run(err, "monitor", "watch", "--port", "0"));
        int free;
        try (java.net.ServerSocket s = new java.net.ServerSocket(0)) {
            free = s.getLocalPort();
        }
        StringWriter err2 = new StringWriter();
        assertEquals(2, run(err2, "monitor", "watch", "--port", Integer.toString(free), "--wait", "0"));
        assertTrue(err2.toString().contains("cannot connect to 127.0.0.1:" + free), err2.toString());
        StringWriter err3 = new StringWriter();
        assertEquals(2, run(err3, "monitor", "watch", "--port", Integer.toString(free), "--levels", "tcp"));
        assertTrue(err3.toString().contains("unknown monitoring level 'tcp'"), err3.toString());
        try (java.net.ServerSocket s = new java.net.ServerSocket(0, 5, java.net.InetAddress.getLoopbackAddress())) {
            Thread t = new Thread(() -> {
                try (java.net.Socket c = s.accept()) {
                    c.getOutputStream().write("HTTP/1.1 200 OK\n".getBytes(java.nio.charset.StandardCharsets.UTF_8));
                } catch (java.io.IOException e) {
                    // the test fails on the exit status
                }
            });
            t.start();
            StringWriter err4 = new StringWriter();
            assertEquals(2, run(err4, "monitor", "watch", "--port", Integer.toString(s.getLocalPort())));
            assertTrue(err4.toString().contains("not a dsmscope-live 1 stream"), err4.toString());
            t.join();
        }
    }
}
