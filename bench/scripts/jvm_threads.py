#!/usr/bin/env python3
"""CPU of one command by thread group, for machines without /usr/bin/time or pgrep (a lent machine): runs the
command, samples /proc/PID/task/*/stat every 0.2 s (a thread's last sample before it ends, so each figure may miss
up to 0.2 s of a thread), and prints one line: label, exit status, wall seconds, user + system CPU of the process
(from wait4, exact), and the CPU of its threads by group (main: the command's thread, which runs the prescan and
partition 0; part: other partitions' replay threads; router; C2, C1 compiler threads; GC; other).
Usage: jvm_threads.py LABEL COMMAND ... (the command's standard output and error go to cmd.out / cmd.err)."""
import os, sys, time


def groups(pid, seen):
    base = '/proc/%d/task' % pid
    try:
        tids = os.listdir(base)
    except OSError:
        return
    for tid in tids:
        try:
            with open('%s/%s/stat' % (base, tid)) as f:
                s = f.read()
        except OSError:
            continue
        name = s[s.index('(') + 1:s.rindex(')')]
        fields = s[s.rindex(')') + 2:].split()
        cpu = (int(fields[11]) + int(fields[12])) / os.sysconf('SC_CLK_TCK')
        seen[tid] = (name, max(cpu, seen.get(tid, (name, 0.0))[1]))


def group_of(name):
    if name.startswith('java'):
        return 'main'
    for key, g in (('replay', 'part'), ('router', 'router'), ('C2', 'C2'), ('C1', 'C1'), ('GC', 'GC'), ('G1', 'GC')):
        if key in name:
            return g
    return 'other'


def main():
    label, cmd = sys.argv[1], sys.argv[2:]
    t0 = time.time()
    with open('cmd.out', 'wb') as out, open('cmd.err', 'wb') as err:
        pid = os.fork()
        if pid == 0:
            os.dup2(out.fileno(), 1)
            os.dup2(err.fileno(), 2)
            os.execvp(cmd[0], cmd)
    seen = {}
    while True:
        done, status, ru = os.wait4(pid, os.WNOHANG)
        if done:
            break
        groups(pid, seen)
        time.sleep(0.2)
    wall = time.time() - t0
    by = {}
    for name, cpu in seen.values():
        g = group_of(name)
        by[g] = by.get(g, 0.0) + cpu
    rc = os.waitstatus_to_exitcode(status)
    print('%-28s rc=%d wall %7.2f cpu %7.2f sys %6.2f | %s' % (
        label, rc, wall, ru.ru_utime + ru.ru_stime, ru.ru_stime,
        ' '.join('%s %.2f' % (g, by.get(g, 0.0)) for g in ('main', 'part', 'router', 'C2', 'C1', 'GC', 'other'))),
        flush=True)
    if rc != 0:
        with open('cmd.err', 'rb') as f:
            sys.stdout.write(f.read()[-600:].decode(errors='replace') + '\n')


if __name__ == '__main__':
    main()
