package org.dsmscope.cli;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.dsmscope.ciat.Ciat;
import org.dsmscope.ciat.CiatOptions;
import org.dsmscope.dsm.Launcher;
import org.dsmscope.examples.dsm.MatMul;
import org.dsmscope.examples.dsm.Sor;
import org.dsmscope.examples.dsm.WorkQueue;
import org.dsmscope.monitor.record.RecordingException;
import org.dsmscope.monitor.record.RecordingFormat;
import org.dsmscope.replay.Replay;
import org.dsmscope.replay.ReplayOptions;
import org.dsmscope.trace.TraceSet;
import org.dsmscope.viewer.model.LiveMonitorSource;
import org.dsmscope.viewer.model.MonitorSource;
import org.dsmscope.viewer.model.ReplaySource;
import org.dsmscope.viewer.model.Source;
import org.dsmscope.viewer.server.Launches;
import org.dsmscope.viewer.server.ViewServer;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code dsmscope view}: the viewer's web page (seed 002 §4.3-4.6, SPEC §9) for monitor recordings, a replayed
 * trace set and a live DSM run, served on loopback (or, with a token, on another address).
 */
@Command(name = "view", sortOptions = false, separator = " ",
        description = {"Show recordings (.dsmrec), a replayed trace set or a live 'dsm run --live PORT' in the browser:",
            "space-time, synchronization, utilization, hosts and transport views (seed 002 §4.3-4.6).",
            "  view [RECORDING.dsmrec]... [[calls_file.p] trace_file.p] [--live PORT] [--launch] [--port N] [--open]"})
public final class ViewCommand implements Callable<Integer> {
    @Parameters(arity = "0..*", paramLabel = "INPUT", description = "recordings, then [calls_file.p] trace_file.p")
    List<String> inputs = new ArrayList<>();

    @Option(names = "--live", paramLabel = "PORT", description = "also show the live run of 'dsm run --live PORT'")
    Integer live;

    @Option(names = "--port", paramLabel = "N", description = "port to serve on (default: a free one)")
    int port;

    @Option(names = "--bind", paramLabel = "ADDRESS",
            description = "address to serve on (default 127.0.0.1; any other requires the printed token)")
    String bind = "127.0.0.1";

    @Option(names = "--launch", description = {"offer a form in the page that starts a bundled DSM example",
        "('dsm run': program, members, arguments, loss) and follows it live; runs are killed when the viewer stops"})
    boolean launch;

    @Option(names = "--no-comm-marks", description = "replayed trace sets: leave out CIAT's RAW / WAR / WAW / RAR"
            + " marks (the replay then runs without CIAT)")
    boolean noCommMarks;

    @Option(names = "--open", description = "open the page in the desktop's browser")
    boolean open;

    @Option(names = "--wait", paramLabel = "S", description = "with --live: try connecting for S seconds (default 30)")
    long waitSeconds = 30;

    @Option(names = "--serve-seconds", hidden = true, paramLabel = "S",
            description = "stop serving after S seconds (tests and benchmarks; default: until interrupted)")
    double serveSeconds = -1;

    @CommandLine.Mixin
    ReplayArgs r = new ReplayArgs();

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        PrintWriter out = spec.commandLine().getOut();
        List<Source> sources = new ArrayList<>();
        List<String> traces = new ArrayList<>();
        for (String in : inputs) {
            Path p = Path.of(in);
            if (isRecording(p)) {
                try {
                    sources.add(MonitorSource.open(p));
                } catch (RecordingException e) {
                    throw new UserError(e.getMessage());
                }
            } else {
                traces.add(in);
            }
        }
        if (traces.size() > 2) {
            throw new UserError("view: " + traces.get(0) + ": not a recording, and a trace set is at most"
                    + " [calls_file.p] trace_file.p");
        }
        if (!traces.isEmpty() || r.traceList != null) {
            sources.add(replay(traces));
        }
        if (live != null) {
            if (live < 1 || live > 65535) {
                throw new UserError("option --live: port " + live + " out of range (1..65535)");
            }
            try {
                sources.add(LiveMonitorSource.connect("127.0.0.1", live, waitSeconds * 1000));
            } catch (IOException e) {
                throw new UserError("view: " + e.getMessage());
            }
        }
        if (sources.isEmpty() && !launch) {
            throw new UserError("view: nothing to show; usage: view [RECORDING.dsmrec]... [[calls_file.p]"
                    + " trace_file.p] [--live PORT] [--launch]");
        }
        if (port < 0 || port > 65535) {
            throw new UserError("option --port: " + port + " out of range (0..65535)");
        }
        InetAddress addr;
        try {
            addr = InetAddress.getByName(bind);
        } catch (IOException e) {
            throw new UserError("option --bind: unknown address " + bind);
        }
        String token = addr.isLoopbackAddress() ? null : ViewServer.newToken();
        ViewServer server;
        try {
            server = new ViewServer(sources, bind, port, token);
        } catch (IOException e) {
            for (Source s : sources) {
                s.close();
            }
            throw new UserError("view: " + e.getMessage());
        }
        if (launch) {
            server.launches(new Launches(LAUNCHABLE, ViewCommand::runMembers));
        }
        CountDownLatch stop = new CountDownLatch(1);
        Thread hook = new Thread(() -> {
            server.close();
            stop.countDown();
        }, "dsmscope-view-stop");
        Runtime.getRuntime().addShutdownHook(hook);
        out.println("view: " + sources.size() + " input" + (sources.size() == 1 ? "" : "s") + " at " + server.url());
        if (token != null) {
            out.println("view: every request needs the token above (bound to " + bind + ")");
        }
        if (launch) {
            out.println("view: the page can start " + String.join(", ", LAUNCHABLE.stream()
                    .map(c -> c.substring(c.lastIndexOf('.') + 1)).toList()) + " (dsm run, followed live)");
        }
        out.println("view: Ctrl-C stops");
        out.flush();
        if (open) {
            browse(server.url(), spec.commandLine().getErr());
        }
        boolean interrupted = false;
        try {
            if (serveSeconds >= 0) {
                stop.await((long) (serveSeconds * 1000), TimeUnit.MILLISECONDS);
            } else {
                stop.await();
            }
        } catch (InterruptedException e) {
            interrupted = true; // stopped by whoever started the command (tests, embedders)
        } finally {
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
                server.close();
            } catch (IllegalStateException e) {
                // the JVM is already shutting down: the hook closes the server
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
        return 0;
    }

    /** The programs the page's launch form offers: the bundled DSM examples. */
    static final List<String> LAUNCHABLE = List.of(MatMul.class.getName(), Sor.class.getName(),
            WorkQueue.class.getName());

    /** {@code dsm run} for the launch form: live on a free port, members held until the page is connected. */
    static int runMembers(String program, int members, List<String> args, double loss,
            java.util.function.IntConsumer liveStarted) throws IOException, InterruptedException {
        Launcher.Options o = new Launcher.Options();
        o.members = members;
        o.loss = loss;
        o.livePort = 0;
        o.liveWaitSeconds = 30;
        o.liveStarted = liveStarted;
        o.timeoutSeconds = 600;
        o.command = new ArrayList<>();
        o.command.add(program);
        o.command.addAll(args);
        return Launcher.run(o, System.err, System.err);
    }

    private static boolean isRecording(Path p) throws IOException {
        if (!Files.isRegularFile(p)) {
            return false;
        }
        try (InputStream in = Files.newInputStream(p)) {
            return Arrays.equals(in.readNBytes(RecordingFormat.MAGIC.length), RecordingFormat.MAGIC);
        }
    }

    /** Replays the trace set into a timeline; a replay that fails part way shows what it had and the error. */
    private Source replay(List<String> traces) {
        ReplayOptions ro = r.replayOptions();
        ro.validate();
        TraceSet[] ts = r.traceSets("view", traces, "view [calls_file.p] trace_file.p");
        r.warnUnused(spec);
        Replay replay = new Replay(ts[0], ts[1], ro);
        ReplaySource view = new ReplaySource(ts[0].base(), !noCommMarks);
        if (!noCommMarks) {
            // CIAT's communication events as marks: CIAT sees each access before the view (its last writers)
            CiatOptions co = new CiatOptions();
            co.writeFiles = false;
            co.listener = view::commEvent;
            replay.add(new Ciat(co));
        }
        replay.add(view);
        Progress shown = Progress.start(Progress.Mode.of(r.progress), "view", "replayed",
                spec.commandLine().getErr(), replay::progress, replay::expectedRecords);
        try {
            replay.run();
        } catch (RuntimeException e) {
            String msg = Main.userMessage(e);
            view.timeline().damage = "replay failed: " + (msg != null ? msg : e.toString());
            view.finish();
            spec.commandLine().getErr().println("dsmscope: view: " + view.timeline().damage);
        } finally {
            Progress.close(shown);
        }
        return view;
    }

    private static void browse(String url, PrintWriter err) {
        try {
            if (java.awt.Desktop.isDesktopSupported()
                    && java.awt.Desktop.getDesktop().isSupported(java.awt.Desktop.Action.BROWSE)) {
                java.awt.Desktop.getDesktop().browse(java.net.URI.create(url));
                return;
            }
            new ProcessBuilder("xdg-open", url).inheritIO().start();
        } catch (IOException | RuntimeException e) {
            err.println("dsmscope: view: cannot open a browser (" + e.getMessage() + "); open " + url);
            err.flush();
        }
    }
}
