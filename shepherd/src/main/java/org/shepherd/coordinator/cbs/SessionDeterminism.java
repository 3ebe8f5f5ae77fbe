package org.shepherd.coordinator.cbs;

import java.sql.SQLException;
import java.time.Instant;
import java.time.ZoneId;
import java.util.UUID;
import org.shepherd.translator.DeterminismSource;

/**
 * The coordinator's values (clock, random, sequences) and a session's own: the user its client connected as, and the
 * first key its latest INSERT into an identity table generated.
 */
final class SessionDeterminism implements DeterminismSource {

    private final DeterminismSource coordinator;
    private final String user;
    private volatile Long lastInsertId;

    SessionDeterminism(DeterminismSource coordinator, String user) {
        this.coordinator = coordinator;
        this.user = user;
    }

    @Override
    public Instant now() {
        return coordinator.now();
    }

    @Override
    public double random() {
        return coordinator.random();
    }

    @Override
    public UUID uuid() {
        return coordinator.uuid();
    }

    @Override
    public long nextValue(String name) throws SQLException {
        return coordinator.nextValue(name);
    }

    @Override
    public Long lastInsertId() {
        return lastInsertId;
    }

    /** An INSERT of this session generated {@code key} first (null: it generated none, and the value stays). */
    void inserted(Object key) {
        if (key instanceof Number n) lastInsertId = n.longValue();
    }

    @Override
    public ZoneId zone() {
        return coordinator.zone();
    }

    @Override
    public String sessionUser() throws SQLException {
        if (user == null || user.isEmpty()) return coordinator.sessionUser();
        return user;
    }
}
