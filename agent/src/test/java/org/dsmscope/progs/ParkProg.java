package org.dsmscope.progs;

import java.util.concurrent.locks.LockSupport;

/** Test program: two threads take turns through a volatile step counter, parking and unparking each other. */
public final class ParkProg {
    static volatile int step;

    public static void main(String[] args) throws Exception {
        Thread main = Thread.currentThread();
        Thread other = new Thread(() -> {
            for (int k = 1; k < 20; k += 2) {
                while (step != k) {
                    LockSupport.park();
                }
                pause(); // main is parked by now, so at least one of its parks returns after an unpark
                step = k + 1;
                LockSupport.unpark(main);
            }
        });
        other.start();
        for (int k = 0; k < 20; k += 2) {
            while (step != k) {
                LockSupport.parkNanos(ParkProg.class, 1_000_000_000L);
            }
            step = k + 1;
            LockSupport.unpark(other);
        }
        other.join();
        System.out.println("check " + step);
    }

    private static void pause() {
        try {
            Thread.sleep(1);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
