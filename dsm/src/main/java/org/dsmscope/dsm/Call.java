package org.dsmscope.dsm;

import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * An outstanding request (getUpdates, copy-set change, eventSync, ticket, ordering) and the replies it waits
 * for. Guarded by its own monitor; the requesting thread waits, receiver threads reply, view changes remove
 * members that left.
 */
final class Call {
    final long id;
    final String what;
    final TreeSet<Integer> waiting;
    final Map<Integer, Long> values = new HashMap<>();
    int redirect = -1;
    String failure;
    int kind;
    int ctx;
    byte[] body;

    Call(long id, String what, Set<Integer> waiting) {
        this.id = id;
        this.what = what;
        this.waiting = new TreeSet<>(waiting);
    }

    synchronized void reply(int from, long value) {
        values.put(from, value);
        waiting.remove(from);
        notifyAll();
    }

    synchronized void redirect(int from, int hint) {
        redirect = hint;
        waiting.remove(from);
        notifyAll();
    }

    synchronized void left(Set<Integer> gone, boolean fatal) {
        for (int g : gone) {
            if (waiting.remove(g) && fatal) {
                failure = what + ": member m" + g + " left the group";
            }
        }
        notifyAll();
    }

    /** Remembers an idempotent request, to be sent again after a merge ({@link Messenger#request}). */
    synchronized void resendable(int kind, int ctx, byte[] body) {
        this.kind = kind;
        this.ctx = ctx;
        this.body = body;
    }

    /** Members to send the request to again (none unless it is idempotent). */
    synchronized Set<Integer> resendTo() {
        return body == null ? Set.of() : new TreeSet<>(waiting);
    }

    synchronized boolean done() {
        return waiting.isEmpty() || failure != null;
    }
}
