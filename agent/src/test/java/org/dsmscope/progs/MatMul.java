package org.dsmscope.progs;

/** The seed's matrix multiply: args n threads, size; rows split among threads; prints a check value. */
public final class MatMul {
    public static void main(String[] args) throws Exception {
        int p = Integer.parseInt(args[0]);
        int n = Integer.parseInt(args[1]);
        double[][] a = new double[n][n];
        double[][] b = new double[n][n];
        double[][] c = new double[n][n];
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < n; j++) {
                a[i][j] = i + j;
                b[i][j] = i - j;
            }
        }
        Thread[] ts = new Thread[p];
        for (int t = 0; t < p; t++) {
            final int id = t;
            ts[t] = new Thread(() -> {
                for (int i = id; i < n; i += p) {
                    double[] ai = a[i];
                    double[] ci = c[i];
                    for (int j = 0; j < n; j++) {
                        double s = 0;
                        for (int k = 0; k < n; k++) {
                            s += ai[k] * b[k][j];
                        }
                        ci[j] = s;
                    }
                }
            });
            ts[t].start();
        }
        for (Thread t : ts) {
            t.join();
        }
        double sum = 0;
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < n; j++) {
                sum += c[i][j];
            }
        }
        System.out.println("check " + sum);
    }
}
