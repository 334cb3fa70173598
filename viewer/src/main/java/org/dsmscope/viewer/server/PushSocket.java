package org.dsmscope.viewer.server;

import java.util.function.Consumer;
import org.eclipse.jetty.websocket.api.Callback;
import org.eclipse.jetty.websocket.api.Session;

/**
 * One page's end of the push channel ({@link Push}) as a WebSocket of Jetty's API: sends through the session and
 * reads nothing from the page. Public only because Jetty calls its methods by reflection.
 */
public final class PushSocket implements Session.Listener.AutoDemanding, Push.Peer {
    private final Push push;
    private volatile Session session;
    private volatile Push.Client client;

    PushSocket(Push push) {
        this.push = push;
    }

    @Override
    public void onWebSocketOpen(Session s) {
        session = s;
        client = push.add(this);
    }

    @Override
    public void onWebSocketClose(int status, String reason) {
        Push.Client c = client;
        if (c != null) {
            push.remove(c);
        }
    }

    @Override
    public void onWebSocketError(Throwable cause) {
        onWebSocketClose(0, null);
    }

    @Override
    public void send(String text, Runnable done, Consumer<Throwable> failed) {
        session.sendText(text, Callback.from(done, failed));
    }

    @Override
    public void close() {
        Session s = session;
        if (s != null) {
            s.disconnect();
        }
    }
}
