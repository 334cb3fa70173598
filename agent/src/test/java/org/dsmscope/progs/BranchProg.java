package org.dsmscope.progs;

/** Test program for level 3: a counted loop, a call and a switch. */
public final class BranchProg {
    static int twice(int v) {
        return 2 * v;
    }

    public static void main(String[] args) {
        int s = 0;
        for (int i = 0; i < 5; i++) {
            s += twice(i);
        }
        switch (s) {
            case 20:
                s++;
                break;
            default:
                s--;
        }
        System.out.println("check " + s);
    }
}
