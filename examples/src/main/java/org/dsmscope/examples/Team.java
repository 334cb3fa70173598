package org.dsmscope.examples;

/**
 * Runs one body on a team of threads the way the seed's parallel programs do (seed 000 &sect;3: thread 0 is the
 * main thread, spawn and join delimit the parallel phase): the calling thread is member 0, members 1..p-1 are
 * started in order with {@code Thread.start} and joined with {@code Thread.join}. With p = 1 no thread is started.
 *
 * <p>Threading: {@link #members} is filled before any member starts and never changes. If a member throws, the
 * first failure is recorded under this object's lock and every other member is interrupted, so barrier, monitor
 * and condition waits break instead of hanging; {@link #run} rethrows that failure after joining everyone. The
 * failure field is read without the lock only after every member has been joined (join orders the accesses).
 */
public final class Team {
    /** The code each member runs, given its member index. */
    @FunctionalInterface
    public interface Body {
        /** Runs member {@code id} (0 is the calling thread). */
        void run(int id) throws Exception;
    }

    private final Thread[] members;
    private Throwable failure;
    private int failedId;

    private Team(int size) {
        members = new Thread[size];
    }

    /** Runs {@code body} on {@code size} threads named {@code name-i}; rethrows the first member's failure. */
    public static void run(String name, int size, Body body) {
        if (size < 1) {
            throw new IllegalArgumentException("team size must be at least 1, was " + size);
        }
        new Team(size).go(name, body);
    }

    /** First index of member {@code id}'s share when {@code n} items are split into {@code p} contiguous blocks. */
    public static int lo(int id, int p, int n) {
        return (int) ((long) id * n / p);
    }

    /** One past the last index of member {@code id}'s share (see {@link #lo}). */
    public static int hi(int id, int p, int n) {
        return lo(id + 1, p, n);
    }

    private void go(String name, Body body) {
        members[0] = Thread.currentThread();
        for (int id = 1; id < members.length; id++) {
            members[id] = new Thread(new Member(this, body, id), name + "-" + id);
        }
        for (int id = 1; id < members.length; id++) {
            members[id].start();
        }
        runMember(body, 0);
        for (int id = 1; id < members.length; id++) {
            joinUninterruptibly(members[id]);
        }
        Thread.interrupted(); // clears an interrupt a failing member sent to the caller
        if (failure != null) {
            throw new IllegalStateException("thread " + failedId + " of " + members.length + " failed: " + failure,
                    failure);
        }
    }

    private void runMember(Body body, int id) {
        try {
            body.run(id);
        } catch (Throwable t) {
            fail(id, t);
        }
    }

    private synchronized void fail(int id, Throwable t) {
        if (failure != null) {
            return; // a consequence of the first failure (broken barrier, interrupted wait)
        }
        failure = t;
        failedId = id;
        for (int other = 0; other < members.length; other++) {
            if (other != id) {
                members[other].interrupt();
            }
        }
    }

    private static void joinUninterruptibly(Thread t) {
        while (true) {
            try {
                t.join();
                return;
            } catch (InterruptedException e) {
                // a failing member interrupted us; keep joining so that no thread outlives the team
            }
        }
    }

    /** A started member: runs the body with its index. */
    private static final class Member implements Runnable {
        private final Team team;
        private final Body body;
        private final int id;

        Member(Team team, Body body, int id) {
            this.team = team;
            this.body = body;
            this.id = id;
        }

        @Override
        public void run() {
            team.runMember(body, id);
        }
    }
}
