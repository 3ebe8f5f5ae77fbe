package org.shepherd.wal;

import java.util.List;

/**
 * One committed transaction as the write-ahead log keeps it: what a replica that lacks it must run (its writes, in
 * order) and its commit barrier, which orders it among all committed transactions.
 *
 * @param txId the transaction's id, as the replicas' {@code shepherd_txlog.txid} records it
 * @param barrier the commit barrier T.b, {@code >= 0}
 * @param statements the transaction's writes, in the order they ran
 */
public record WalRecord(long txId, long barrier, List<LoggedStatement> statements) {

    public WalRecord {
        if (barrier < 0) throw new IllegalArgumentException("barrier must be >= 0, was " + barrier);
        statements = List.copyOf(statements);
    }
}
