package org.dsmscope.progs;

/** Test program ending in different ways: args[0] = normal, exit, throw; a worker may still run at the end. */
public final class ExitProg {
    static volatile long spin;

    public static void main(String[] args) throws Exception {
        Object lock = new Object();
        Thread worker = new Thread(() -> {
            for (;;) {
                synchronized (lock) {
                    spin++;
                }
            }
        });
        worker.setDaemon(true);
        worker.start();
        synchronized (lock) {
            spin += 0;
        }
        Thread.sleep(100);
        System.out.println("check ok");
        switch (args[0]) {
            case "exit":
                System.exit(3);
                break;
            case "throw":
                throw new IllegalStateException("boom");
            default:
                break;
        }
    }
}
