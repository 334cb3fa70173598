package org.dsmscope.dsm;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.Arrays;
import org.dsmscope.monitor.OutputCapture;
import org.dsmscope.monitor.Router;
import org.dsmscope.monitor.event.EventSink;
import org.dsmscope.monitor.route.SocketSink;

/**
 * Entry point of one member JVM started by {@link Launcher}: joins the group over UDP on 127.0.0.1, routes its
 * events, its host and its standard output and error lines to the launcher (when recording or watched), runs the
 * application class and leaves. Exit status 0 on success, 1
 * when the application fails (one line {@code m<rank>: failed: ...} on stderr).
 *
 * <p>Usage: {@code MemberMain rank members cluster discoveryDir loss delayMs routePort(0: none) timeoutMs CLASS
 * ARGS...}
 */
public final class MemberMain {
    private MemberMain() {
    }

    /** Runs one member. */
    public static void main(String[] args) {
        System.exit(run(args));
    }

    static int run(String[] args) {
        DsmConfig c = DsmConfig.of(Integer.parseInt(args[0]), Integer.parseInt(args[1]));
        c.cluster = args[2];
        c.transport = DsmConfig.Transport.UDP;
        c.discoveryDir = Path.of(args[3]);
        c.loss = Double.parseDouble(args[4]);
        c.delayMillis = Integer.parseInt(args[5]);
        int port = Integer.parseInt(args[6]);
        c.timeoutMillis = Long.parseLong(args[7]);
        String cls = args[8];
        String[] appArgs = Arrays.copyOfRange(args, 9, args.length);
        PrintStream out = System.out;
        PrintStream err = System.err;
        Router router = null;
        SocketSink sink = null;
        Dsm dsm = null;
        try {
            if (port > 0) {
                router = new Router();
                sink = new SocketSink(port, router);
                router.addSink(sink);
                c.router = router;
            }
            DsmApp app = (DsmApp) Class.forName(cls).getDeclaredConstructor().newInstance();
            dsm = Dsm.join(c);
            if (dsm.monitor() != null) {
                // the member's output view (seed 002 §4.6): its lines go to the launcher and into the recording
                System.setOut(OutputCapture.tee(out, dsm.monitor(), EventSink.STDOUT));
                System.setErr(OutputCapture.tee(err, dsm.monitor(), EventSink.STDERR));
            }
            app.run(dsm, appArgs);
            System.out.flush();
            dsm.close();
            dsm = null;
            return 0;
        } catch (ClassNotFoundException | ClassCastException | NoSuchMethodException e) {
            System.err.println("m" + c.rank + ": failed: " + cls + " is not a DsmApp class with a public no-argument"
                    + " constructor (" + e + ")");
            return 1;
        } catch (IllegalArgumentException e) {
            // the program's own usage error (its arguments): one line, a user's mistake
            System.err.println("m" + c.rank + ": " + cls + ": " + e.getMessage());
            return 2;
        } catch (Throwable e) {
            System.err.println("m" + c.rank + ": failed: " + e);
            return 1;
        } finally {
            if (dsm != null) {
                dsm.crash();
            }
            System.setOut(out);
            System.setErr(err);
            if (router != null) {
                router.close();
            }
            if (sink != null) {
                sink.close();
            }
        }
    }
}
