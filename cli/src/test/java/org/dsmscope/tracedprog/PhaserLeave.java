package org.dsmscope.tracedprog;

import java.util.concurrent.Phaser;

/**
 * Three threads step through a Phaser; the third leaves it (arriveAndDeregister) in its third round, so the last
 * two phases are awaited by two threads only. Prints a check value.
 */
public final class PhaserLeave {
    private static final int[] DATA = new int[64];

    private PhaserLeave() {
    }

    public static void main(String[] args) throws InterruptedException {
        int n = 3;
        Phaser ph = new Phaser(n);
        Thread[] ts = new Thread[n];
        for (int i = 0; i < n; i++) {
            int me = i;
            ts[i] = new Thread(() -> {
                for (int r = 0; r < 4; r++) {
                    DATA[me * 8 + r] += r;
                    if (me == 2 && r == 2) {
                        ph.arriveAndDeregister();
                        return;
                    }
                    ph.arriveAndAwaitAdvance();
                }
            });
            ts[i].start();
        }
        for (Thread t : ts) {
            t.join();
        }
        int s = 0;
        for (int v : DATA) {
            s += v;
        }
        System.out.println("check " + s);
    }
}
