package org.shepherd.sim;

/** A statement of the simulated key-value database. */
record SimOp(Kind kind, int key, long value) {

    enum Kind { READ, WRITE, INCREMENT }

    static SimOp read(int key) {
        return new SimOp(Kind.READ, key, 0);
    }

    static SimOp write(int key, long value) {
        return new SimOp(Kind.WRITE, key, value);
    }

    static SimOp increment(int key) {
        return new SimOp(Kind.INCREMENT, key, 0);
    }

    @Override
    public String toString() {
        switch (kind) {
            case READ:
                return "READ(k" + key + ")";
            case WRITE:
                return "WRITE(k" + key + "," + value + ")";
            default:
                return "INCREMENT(k" + key + ")";
        }
    }
}
