package org.dsmscope.tracedprog;

/** Test program for {@code dsmscope trace}: two threads update a counter under a lock; args[0] is the exit status. */
public final class TwoThreads {
    static int counter;

    public static void main(String[] args) throws Exception {
        Object lock = new Object();
        Thread t = new Thread(() -> {
            for (int i = 0; i < 1000; i++) {
                synchronized (lock) {
                    counter++;
                }
            }
        });
        t.start();
        for (int i = 0; i < 1000; i++) {
            synchronized (lock) {
                counter++;
            }
        }
        t.join();
        System.out.println("check " + counter);
        int status = Integer.parseInt(args[0]);
        if (status != 0) {
            System.exit(status);
        }
    }
}
