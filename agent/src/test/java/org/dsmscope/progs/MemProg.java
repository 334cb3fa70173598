package org.dsmscope.progs;

import org.dsmscope.api.Smait;

/** Test program for the level 2 address model: arrays of each kind, instance and static fields, markers. */
public final class MemProg {
    static int staticInt;
    static double staticDouble;

    int x;
    long y;
    byte z;
    Object ref;

    public static void main(String[] args) {
        int[] a = new int[8];
        long[] l = new long[4];
        double[] d = new double[4];
        byte[] b = new byte[4];
        Object[] o = new Object[3];
        Smait.marker(0, 1);
        for (int i = 0; i < a.length; i++) {
            a[i] = i;
        }
        for (int i = 0; i < l.length; i++) {
            l[i] = a[i];
            d[i] = l[i];
            b[i] = (byte) i;
        }
        MemProg m = new MemProg();
        m.x = 1;
        m.y = 2;
        m.z = 3;
        m.ref = o;
        o[1] = m;
        staticInt = m.x;
        staticDouble = d[2];
        Smait.marker(1, 2);
        int hidden = 0;
        for (int i = 0; i < a.length; i++) {
            hidden += a[i];
        }
        Smait.marker(2, 3);
        System.out.println("check " + (staticInt + m.y + m.z + hidden) + " " + staticDouble);
    }
}
