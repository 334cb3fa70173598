package org.dsmscope.bench.agent;

/**
 * The workload of the agent's slowdown harness: seed 000 §2's matrix multiply (C = A × B, n × n doubles), rows
 * dealt round-robin to p threads. Arguments: p n. Prints a check value so a traced run can be compared.
 */
public final class MatMulWorkload {
    private MatMulWorkload() {
    }

    /** Entry point: {@code MatMulWorkload p n}. */
    public static void main(String[] args) throws InterruptedException {
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
