package org.dsmscope.monitor.route;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;

/**
 * A viewer's end of a "dsmscope-live" connection ({@link LiveServer}): connects (retrying while the run has not
 * started listening yet), checks the format line, reads the JSON lines one by one and sends commands.
 */
public final class LiveClient implements AutoCloseable {
    private static final ObjectMapper MAPPER = new ObjectMapper();
    private final Socket socket;
    private final BufferedReader in;
    private final OutputStream out;
    private final String where;
    private String line;

    private LiveClient(Socket socket, String where) throws IOException {
        this.socket = socket;
        this.where = where;
        this.in = new BufferedReader(new InputStreamReader(socket.getInputStream(), StandardCharsets.UTF_8), 1 << 16);
        this.out = socket.getOutputStream();
        String first = in.readLine();
        String expected = LiveServer.FORMAT + " " + LiveServer.VERSION;
        if (first == null || !first.equals(expected)) {
            socket.close();
            throw new IOException(where + ": not a " + expected + " stream (first line: "
                    + (first == null ? "none" : "'" + first + "'") + ")");
        }
    }

    /**
     * Connects to {@code host:port}, retrying for up to {@code waitMillis} while nothing listens there yet; throws
     * an {@link IOException} naming the address if that fails or the stream is not "dsmscope-live 1".
     */
    public static LiveClient connect(String host, int port, long waitMillis) throws IOException, InterruptedException {
        String where = host + ":" + port;
        long deadline = System.currentTimeMillis() + waitMillis;
        while (true) {
            Socket s = new Socket();
            try {
                s.connect(new InetSocketAddress(host, port), 2000);
                return new LiveClient(s, where);
            } catch (java.net.ConnectException e) {
                s.close();
                if (System.currentTimeMillis() > deadline) {
                    throw new IOException("cannot connect to " + where + ": " + e.getMessage()
                            + " (is a 'dsmscope dsm run --live " + port + "' running?)");
                }
                Thread.sleep(100);
            }
        }
    }

    /** The next line as a JSON object, or null at the end of the stream. */
    public JsonNode next() throws IOException {
        line = in.readLine();
        if (line == null) {
            return null;
        }
        try {
            return MAPPER.readTree(line);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IOException(where + ": bad line '" + line + "': " + e.getOriginalMessage());
        }
    }

    /**
     * The rest of the stream as one streaming parser over its JSON objects (one a line), for a reader that builds
     * no tree per line; use it instead of {@link #next}.
     */
    public com.fasterxml.jackson.core.JsonParser parser(com.fasterxml.jackson.core.JsonFactory factory)
            throws IOException {
        return factory.createParser(in);
    }

    /** The address connected to, host:port. */
    public String where() {
        return where;
    }

    /** The text of the line last returned by {@link #next}. */
    public String line() {
        return line;
    }

    /** Sends a command line, e.g. {@code levels program,transport}. */
    public synchronized void command(String cmd) throws IOException {
        out.write((cmd.strip() + "\n").getBytes(StandardCharsets.UTF_8));
        out.flush();
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
