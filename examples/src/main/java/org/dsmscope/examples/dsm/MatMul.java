package org.dsmscope.examples.dsm;

import org.dsmscope.dsm.Consistency;
import org.dsmscope.dsm.Dsm;
import org.dsmscope.dsm.DsmApp;
import org.dsmscope.dsm.Eventcount;
import org.dsmscope.dsm.RandomSegment;

/**
 * Matrix multiply synchronized by eventcounts (seed 002 §4.6, Figure 5): member 0 writes A and B and advances
 * "inputs"; every member awaits it, computes its band of rows of C into one shared C segment and advances
 * "rows"; member 0 awaits all bands and checks C against its own product. Member 0 computes a band too, so the
 * other bands arrive while it has written C: false sharing, merged with twins and diffs. Args: [N=48].
 */
public final class MatMul implements DsmApp {
    @Override
    public void run(Dsm dsm, String[] args) {
        String usage = "usage: MatMul [N], 1 <= N <= 2048 (default 48)";
        DsmArgs.atMost(args, 1, usage);
        int n = DsmArgs.integer(args, 0, "N", 48, 1, 2048, usage);
        int p = dsm.members();
        int me = dsm.rank();
        RandomSegment a = dsm.createRandom(n * n * 8, Consistency.release());
        RandomSegment b = dsm.createRandom(n * n * 8, Consistency.release());
        RandomSegment c = dsm.createRandom(n * n * 8, Consistency.release());
        Eventcount joined = dsm.createEvent();
        Eventcount inputs = dsm.createEvent();
        Eventcount rows = dsm.createEvent();
        Eventcount checked = dsm.createEvent();
        dsm.needUpdates(a);
        dsm.needUpdates(b);
        if (me == 0) {
            dsm.needUpdates(c);
        }
        dsm.advance(joined);
        dsm.await(joined, p);
        if (me == 0) {
            for (int i = 0; i < n * n; i++) {
                a.putDouble(8 * i, valueA(i));
                b.putDouble(8 * i, valueB(i));
            }
            dsm.putUpdates(a);
            dsm.putUpdates(b);
            dsm.advance(inputs);
        }
        dsm.await(inputs, 1);
        dsm.getUpdates(a);
        dsm.getUpdates(b);
        int lo = me * n / p;
        int hi = (me + 1) * n / p;
        double[] rowA = new double[n];
        double[] colB = new double[n * n];
        b.readDoubles(0, colB, 0, n * n);
        double[] out = new double[n];
        for (int i = lo; i < hi; i++) {
            a.readDoubles(8 * i * n, rowA, 0, n);
            for (int j = 0; j < n; j++) {
                double s = 0;
                for (int k = 0; k < n; k++) {
                    s += rowA[k] * colB[k * n + j];
                }
                out[j] = s;
            }
            c.writeDoubles(8 * i * n, out, 0, n);
        }
        dsm.putUpdates(c);
        dsm.advance(rows);
        if (me == 0) {
            dsm.await(rows, p);
            dsm.getUpdates(c);
            double maxErr = 0;
            for (int i = 0; i < n; i++) {
                for (int j = 0; j < n; j++) {
                    double s = 0;
                    for (int k = 0; k < n; k++) {
                        s += valueA(i * n + k) * valueB(k * n + j);
                    }
                    maxErr = Math.max(maxErr, Math.abs(s - c.getDouble(8 * (i * n + j))));
                }
            }
            if (maxErr != 0) {
                throw new IllegalStateException("MatMul: C differs from the product by " + maxErr);
            }
            System.out.printf("MatMul m0: %dx%d on %d members, result ok%n", n, n, p);
            dsm.advance(checked);
        }
        dsm.await(checked, 1); // nobody leaves before member 0 has checked
    }

    private static double valueA(int i) {
        return (i % 7) - 3;
    }

    private static double valueB(int i) {
        return (i % 5) * 0.5;
    }
}
