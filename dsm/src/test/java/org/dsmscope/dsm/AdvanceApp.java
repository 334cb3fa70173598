package org.dsmscope.dsm;

/** A test program: every member advances one eventcount {@code k} times (arg, default 5) and awaits all advances. */
public final class AdvanceApp implements DsmApp {
    @Override
    public void run(Dsm dsm, String[] args) {
        int k = args.length > 0 ? Integer.parseInt(args[0]) : 5;
        Eventcount e = dsm.createEvent();
        for (int i = 0; i < k; i++) {
            dsm.advance(e);
        }
        dsm.await(e, (long) k * dsm.members());
    }
}
