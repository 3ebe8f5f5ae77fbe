package org.shepherd.tpcc;

import java.util.SplittableRandom;

/**
 * The run-time constants C of NURand (clause 2.1.6). C_LAST for the run differs from the one used at load by
 * a delta in [65, 119] other than 96 and 112 (clause 2.1.6.1); both are derived from the seed.
 */
public record NuRandConstants(int cLast, int cId, int olIid) {

    public static final int A_LAST_NAME = 255;
    public static final int A_CUSTOMER_ID = 1023;
    public static final int A_ITEM_ID = 8191;

    public static NuRandConstants forLoad(long seed) {
        SplittableRandom r = new SplittableRandom(TpccRandom.derive(seed, 7, 0));
        return new NuRandConstants(r.nextInt(256), r.nextInt(1024), r.nextInt(8192));
    }

    public static NuRandConstants forRun(long seed) {
        NuRandConstants load = forLoad(seed);
        SplittableRandom r = new SplittableRandom(TpccRandom.derive(seed, 7, 1));
        int delta;
        do {
            delta = r.nextInt(65, 120);
        } while (delta == 96 || delta == 112);
        int cLast = load.cLast + delta <= 255 ? load.cLast + delta : load.cLast - delta;
        return new NuRandConstants(cLast, load.cId, load.olIid);
    }

    int forA(int a) {
        switch (a) {
            case A_LAST_NAME:
                return cLast;
            case A_CUSTOMER_ID:
                return cId;
            case A_ITEM_ID:
                return olIid;
            default:
                throw new IllegalArgumentException("NURand has no constant for A=" + a);
        }
    }
}
