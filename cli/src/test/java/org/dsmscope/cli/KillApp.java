package org.dsmscope.cli;

import org.dsmscope.dsm.Dsm;
import org.dsmscope.dsm.DsmApp;
import org.dsmscope.dsm.Eventcount;

/** Test program: the last member dies abruptly mid-run; the others notice it left and finish their rounds. */
public final class KillApp implements DsmApp {
    @Override
    public void run(Dsm dsm, String[] args) throws Exception {
        Eventcount e = dsm.createEvent();
        int victim = dsm.members() - 1;
        for (int round = 1; round <= 6; round++) {
            if (dsm.rank() == victim && round == 3) {
                System.out.println("m" + victim + ": dying");
                System.out.flush();
                Runtime.getRuntime().halt(137);
            }
            dsm.advance(e);
            long deadline = System.currentTimeMillis() + 20_000;
            // before the victim dies everybody advances; afterwards only the survivors do. Advances are sent
            // unreliably and a later one repairs a lost one, but the victim sends none after its round-2
            // advance, which it may not have got out before it died: from round 2 on, the victim's leaving the
            // view also ends the wait.
            while (!dsm.awaitWithTimeout(e, expected(round, dsm.members()), 200)) {
                if (round >= 2 && dsm.ranks().size() <= dsm.members() - 1) {
                    break;
                }
                if (System.currentTimeMillis() > deadline) {
                    throw new IllegalStateException("round " + round + " never completed");
                }
            }
        }
        System.out.println("m" + dsm.rank() + ": finished all rounds");
    }

    private static long expected(int round, int members) {
        return round <= 2 ? (long) round * members : 2L * members + (long) (round - 2) * (members - 1);
    }
}
