package org.dsmscope.agent.instrument;

import java.nio.charset.StandardCharsets;

/**
 * Level 1's cheap pre-check (agent start-up cost): reads a class file's constant pool and method table without
 * building anything and says whether the class can contain what level 1 rewrites — a call that {@link CallSites}
 * replaces or wraps, a {@code synchronized} method, or a {@code monitorenter}/{@code monitorexit} instruction. A class
 * with none of them would come out of {@link ClassInstrumenter} unchanged, so the transformer returns null for it
 * without the ASM pass (most classes of a program, and every class loaded before its {@code main}). The answer is
 * conservative: "maybe" sends the class through the full pass, which decides as before.
 */
final class LevelOneFilter {
    private static final int[] LENGTH = new int[256];

    static {
        java.util.Arrays.fill(LENGTH, 1);
        for (int op : new int[] {0x10, 0x12, 0x15, 0x16, 0x17, 0x18, 0x19, 0x36, 0x37, 0x38, 0x39, 0x3a, 0xa9, 0xbc}) {
            LENGTH[op] = 2;
        }
        for (int op = 0x99; op <= 0xa8; op++) {
            LENGTH[op] = 3;
        }
        for (int op : new int[] {0x11, 0x13, 0x14, 0x84, 0xb2, 0xb3, 0xb4, 0xb5, 0xb6, 0xb7, 0xb8, 0xbb, 0xbd, 0xc0,
            0xc1, 0xc6, 0xc7}) {
            LENGTH[op] = 3;
        }
        LENGTH[0xc5] = 4;
        for (int op : new int[] {0xb9, 0xba, 0xc8, 0xc9}) {
            LENGTH[op] = 5;
        }
        LENGTH[0xaa] = -1;
        LENGTH[0xab] = -1;
        LENGTH[0xc4] = -1;
    }

    private final byte[] b;
    private final int[] item;
    private final String[] utf;

    private LevelOneFilter(byte[] b) {
        this.b = b;
        int n = u2(8);
        item = new int[n];
        utf = new String[n];
    }

    /** True if level 1 may have to rewrite this class (false: the full pass would leave it unchanged). */
    static boolean mayNeedRewrite(byte[] bytes) {
        try {
            return new LevelOneFilter(bytes).scan();
        } catch (RuntimeException e) {
            return true; // malformed or unexpected: let ASM decide (and report) as before
        }
    }

    private int u2(int p) {
        return ((b[p] & 0xFF) << 8) | (b[p + 1] & 0xFF);
    }

    private int s4(int p) {
        return ((b[p] & 0xFF) << 24) | ((b[p + 1] & 0xFF) << 16) | ((b[p + 2] & 0xFF) << 8) | (b[p + 3] & 0xFF);
    }

    private String utf8(int index) {
        String s = utf[index];
        if (s == null) {
            int p = item[index];
            s = new String(b, p + 2, u2(p), StandardCharsets.ISO_8859_1);
            utf[index] = s;
        }
        return s;
    }

    private boolean scan() {
        int p = 10;
        int n = item.length;
        for (int i = 1; i < n; i++) {
            int tag = b[p] & 0xFF;
            item[i] = p + 1;
            switch (tag) {
                case 1: p += 3 + u2(p + 1); break;
                case 3: case 4: p += 5; break;
                case 5: case 6: p += 9; i++; break;
                case 7: case 8: case 16: case 19: case 20: p += 3; break;
                case 15: p += 4; break;
                case 9: case 10: case 11: case 12: case 17: case 18: p += 5; break;
                default: return true;
            }
        }
        for (int i = 1; i < n; i++) {
            int q = item[i];
            if (q == 0) {
                continue;
            }
            int tag = b[q - 1] & 0xFF;
            if (tag == 10 || tag == 11) {
                String owner = utf8(u2(item[u2(q)]));
                int nat = item[u2(q + 2)];
                String name = utf8(u2(nat));
                String desc = utf8(u2(nat + 2));
                if (CallSites.replacement(owner, name, desc) != null || CallSites.wrap(owner, name, desc) != null) {
                    return true;
                }
            }
        }
        // p: access flags, this, super, interfaces, fields, methods
        p += 6;
        p += 2 + 2 * u2(p);
        p = skipMembers(p);
        int methods = u2(p);
        p += 2;
        for (int m = 0; m < methods; m++) {
            if ((u2(p) & 0x0020) != 0) {
                return true; // ACC_SYNCHRONIZED
            }
            int attrs = u2(p + 6);
            p += 8;
            for (int a = 0; a < attrs; a++) {
                int len = s4(p + 2);
                if (utf8(u2(p)).equals("Code") && hasMonitor(p + 6)) {
                    return true;
                }
                p += 6 + len;
            }
        }
        return false;
    }

    private int skipMembers(int p) {
        int count = u2(p);
        p += 2;
        for (int f = 0; f < count; f++) {
            int attrs = u2(p + 6);
            p += 8;
            for (int a = 0; a < attrs; a++) {
                p += 6 + s4(p + 2);
            }
        }
        return p;
    }

    /** True if the Code attribute whose body starts at {@code p} holds a monitorenter or monitorexit. */
    private boolean hasMonitor(int p) {
        int start = p + 8;
        int end = start + s4(p + 4);
        int pc = start;
        while (pc < end) {
            int op = b[pc] & 0xFF;
            if (op == 0xc2 || op == 0xc3) {
                return true;
            }
            int len = LENGTH[op];
            if (len > 0) {
                pc += len;
            } else if (op == 0xc4) {
                pc += (b[pc + 1] & 0xFF) == 0x84 ? 6 : 4;
            } else {
                int a = start + ((pc - start + 4) & ~3);
                if (op == 0xaa) {
                    int low = s4(a + 4);
                    int high = s4(a + 8);
                    pc = a + 12 + 4 * (high - low + 1);
                } else {
                    pc = a + 8 + 8 * s4(a + 4);
                }
            }
        }
        return false;
    }
}
