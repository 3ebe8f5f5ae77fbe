package org.shepherd.coordinator;

import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.sql.SQLWarning;
import java.time.ZoneId;
import java.util.List;
import org.shepherd.translator.SessionSetting;

/**
 * The answer to a session statement, the same in every mode. Replica connections are taken per transaction, so a
 * setting sent to one would stay on a pooled connection and reach another client's session; no session statement
 * goes to a replica, and neither does a temporary table. The shepherd answers the settings whose effect it already
 * guarantees and refuses the rest ({@link SessionSetting}).
 */
public final class SessionSettings {

    private SessionSettings() {
    }

    /**
     * Refuses a batch that holds a session statement (SQLState 0A000), before any of it runs: a batch element goes to
     * a replica as it is. {@code sql} is a prepared batch's statement, or null for a batch of {@code statements}.
     */
    public static void refuseInBatch(String sql, List<String> statements) throws SQLException {
        for (String text : sql != null ? List.of(sql) : statements) {
            if (SessionSetting.of(text) != null) {
                throw new SQLFeatureNotSupportedException("a session statement cannot be part of a batch: '" + text.strip()
                        + "'; execute it on its own", "0A000");
            }
        }
    }

    /**
     * The answer to {@code setting} (spelled {@code sql} by the client); SQLState 0A000 for one not supported.
     * {@code clockZone}: the zone the session's clock functions are read in, or null where the shepherd does not read
     * them (mode passthrough: each statement reaches the database as it is).
     */
    public static Answer answer(SessionSetting setting, String sql, ZoneId clockZone) throws SQLException {
        switch (setting.kind()) {
            case UNKNOWN_TIME_ZONE:
                throw new SQLFeatureNotSupportedException("Shepherd does not support '" + sql.strip() + "': it cannot tell"
                        + " which time zone that is as the client's engine would (name a zone, e.g. 'UTC' or 'Europe/Paris';"
                        + " PostgreSQL reads an offset such as '+02:00' west of UTC: use INTERVAL '+02:00' HOUR TO MINUTE)",
                        "0A000");
            case TIME_ZONE:
                if (clockZone == null) {
                    throw new SQLFeatureNotSupportedException("'" + sql.strip() + "': mode passthrough sends each statement"
                            + " as it is to a pooled connection, so a session's time zone cannot stay with it", "0A000");
                }
                if (setting.zone() == null || SessionSetting.sameZone(setting.zone(), clockZone)) {
                    return new Answer.Update(0, List.of(), List.of(), List.of());
                }
                throw new SQLFeatureNotSupportedException("Shepherd does not support '" + sql.strip() + "': it reads the"
                        + " clock (CURRENT_TIMESTAMP, NOW(), CURRENT_DATE ...) for every session in one time zone, its own, "
                        + clockZone.getId() + ", and pins the value for every replica; setting the session to that zone is"
                        + " accepted. Start the shepherd in the zone wanted (JAVA_OPTS=-Duser.timezone=...), or convert in the"
                        + " application", "0A000");
            case ISOLATION:
                List<SQLWarning> warnings = setting.upgradesIsolation()
                        ? List.of(new SQLWarning("Shepherd always runs transactions SERIALIZABLE; '" + sql.strip()
                                + "' asks for a weaker level, and SERIALIZABLE gives every guarantee it gives", "01000"))
                        : List.of();
                return new Answer.Update(0, List.of(), List.of(), warnings);
            case CHARACTER_SET:
                return new Answer.Update(0, List.of(), List.of(), List.of());
            case NO_EFFECT:
                return new Answer.Update(0, List.of(), List.of(), List.of(new SQLWarning("'" + sql.strip() + "' has no effect"
                        + " through Shepherd: no replica's notices reach its clients, and a replica connection serves many"
                        + " clients", "01000")));
            case TEMPORARY_OBJECT:
                throw new SQLFeatureNotSupportedException("Shepherd does not support temporary tables: '" + sql.strip()
                        + "' would create one on a single replica connection, and replica connections are taken per"
                        + " transaction, so the session's next transaction might not see it and another session might;"
                        + " use an ordinary table", "0A000");
            case SCHEMA:
                throw new SQLFeatureNotSupportedException("'" + sql.strip() + "': mode passthrough sends each statement as it"
                        + " is to a pooled connection, so a session's schema cannot stay with it; qualify the tables with their"
                        + " schema (modes cbs, ss and serial keep a session's schema)", "0A000");
            case ALREADY_SO:
                return new Answer.Update(0, List.of(), List.of(), List.of());
            case KEPT_VARIABLE:
                throw new SQLFeatureNotSupportedException("Shepherd does not support '" + sql.strip() + "': it keeps "
                        + SessionSetting.KEPT_VARIABLES + " on every replica connection (a replica connection serves many"
                        + " sessions in turn); setting them to these values is accepted", "0A000");
            case CONNECTION_LOCK:
                throw new SQLFeatureNotSupportedException("Shepherd does not support '" + sql.strip() + "': MySQL's table"
                        + " locks belong to a connection, not to a transaction, and replica connections are pooled per"
                        + " transaction, so the locks would outlive it; lock rows inside the transaction with SELECT ... FOR"
                        + " UPDATE instead", "0A000");
            default:
                throw new SQLFeatureNotSupportedException("Shepherd does not support the session setting '" + sql.strip()
                        + "': replica connections are taken per transaction, so a setting cannot stay with a session;"
                        + " configure it in the replica setup. Supported: isolation levels (every transaction runs"
                        + " SERIALIZABLE), SET NAMES / client_encoding to UTF-8, the shepherd's own time zone, and SET"
                        + " autocommit, which the Shepherd JDBC driver runs as Connection.setAutoCommit (not inside a batch)",
                        "0A000");
        }
    }
}
