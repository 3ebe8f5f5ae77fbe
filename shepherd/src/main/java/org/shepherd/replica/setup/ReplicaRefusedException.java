package org.shepherd.replica.setup;

import java.sql.SQLException;

/**
 * A replica whose settings cannot give Shepherd's guarantees (serializable strict two-phase locking, durable
 * commits, ...). The shepherd refuses to start with it; the message says what to change. SQLState 08004: the
 * connection was made but the replica is rejected.
 */
public final class ReplicaRefusedException extends SQLException {
    private static final long serialVersionUID = 1L;

    public ReplicaRefusedException(String reason) {
        super(reason, "08004");
    }
}
