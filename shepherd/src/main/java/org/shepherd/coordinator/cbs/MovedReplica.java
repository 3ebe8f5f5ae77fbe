package org.shepherd.coordinator.cbs;

import java.nio.file.Path;
import java.sql.SQLException;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.shepherd.config.ConfigException;
import org.shepherd.config.ConfigKey;
import org.shepherd.config.ShepherdConfig;
import org.shepherd.replica.jdbc.ReplicaSpec;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A replica restored on another machine: before the restored copy is probed ({@code shepherd restore --copied}), the
 * configuration file the shepherd started from is read again, and where it names the replica elsewhere (its
 * {@code replica.<name>.url}, {@code .user}, {@code .password}), the replica is reached there from then on. The file
 * stays the truth a restart reads. Nothing else in it is applied while the shepherd runs.
 */
final class MovedReplica {

    private static final Logger LOG = LoggerFactory.getLogger(MovedReplica.class);

    /** The configuration as the shepherd applies it: as read at start, with the moves made since. */
    private volatile ShepherdConfig applied;

    /** @param startedWith the configuration the shepherd started with; a move is looked for only if it came from a file */
    MovedReplica(ShepherdConfig startedWith) {
        this.applied = startedWith;
    }

    /**
     * The move of replica {@code replica} (one of {@code endpoints}) that the configuration file names, or null when it
     * names it where it is (or the shepherd was not started from a file, or no replica has that name: the core says so).
     * Fails, changing nothing, when the file cannot be read or is not valid, names no such replica any more, names a
     * database of another engine for it, or one that another replica is.
     */
    CbsCore.Move find(String replica, List<JdbcReplicaEndpoint> endpoints) throws SQLException {
        ShepherdConfig running = applied;
        if (running == null || running.source().isEmpty()) return null;
        JdbcReplicaEndpoint endpoint = null;
        for (JdbcReplicaEndpoint e : endpoints) {
            if (e.name().equals(replica)) endpoint = e;
        }
        if (endpoint == null) return null;
        Path file = running.source().get();
        ShepherdConfig now;
        try {
            now = ShepherdConfig.load(file);
        } catch (ConfigException e) {
            throw new SQLException("cannot read the configuration file " + file + " again to see where replica " + replica
                    + " is: " + e.getMessage() + " (the shepherd goes on with what it read at start; mend the file and try"
                    + " again)", "F0000", e);
        }
        ReplicaSpec was = endpoint.pool().spec();
        ReplicaSpec is = now.replicas().stream().filter(r -> r.name().equals(replica)).findFirst().orElse(null);
        if (is == null) {
            throw new SQLException("the configuration file " + file + " names no replica " + replica + " any more: a"
                    + " replica is restored under its name (replicas are added or removed only by a restart)", "55000");
        }
        if (is.equals(was)) return null;
        if (!is.dialect().equals(was.dialect())) {
            throw new SQLException("replica " + replica + " is a " + was.dialect() + " database and the configuration file "
                    + file + " now names a " + is.dialect() + " one for it: a replica keeps its engine while the shepherd"
                    + " runs", "0A000");
        }
        for (JdbcReplicaEndpoint e : endpoints) {
            if (e != endpoint && e.pool().spec().database().equals(is.database())) {
                throw new SQLException("the configuration file " + file + " names for replica " + replica + " the database"
                        + " of replica " + e.name() + " (" + is.location() + "): each replica must be a database of its own",
                        "55000");
            }
        }
        List<String> notApplied = otherChanges(running, now, replica);
        if (!notApplied.isEmpty()) {
            LOG.warn("{} changes more than where replica {} is; not applied while the shepherd runs (a restart reads them):"
                    + " {}", file, replica, notApplied);
        }
        JdbcReplicaEndpoint moving = endpoint;
        return new CbsCore.Move(is.location(), () -> {
            moving.pool().relocate(is);
            applied = withLocation(running, is);
        });
    }

    /** The keys {@code now} sets otherwise than {@code running}, but where {@code replica} is. */
    private static List<String> otherChanges(ShepherdConfig running, ShepherdConfig now, String replica) {
        Map<String, String> before = new TreeMap<>(running.asMap(false));
        Map<String, String> after = new TreeMap<>(now.asMap(false));
        for (ConfigKey k : List.of(ConfigKey.REPLICA_URL, ConfigKey.REPLICA_USER, ConfigKey.REPLICA_PASSWORD)) {
            before.remove(k.forName(replica));
            after.remove(k.forName(replica));
        }
        TreeMap<String, String> changed = new TreeMap<>();
        for (String key : before.keySet()) {
            if (!before.get(key).equals(after.get(key))) changed.put(key, "");
        }
        for (String key : after.keySet()) {
            if (!after.get(key).equals(before.get(key))) changed.put(key, "");
        }
        return List.copyOf(changed.keySet());
    }

    private static ShepherdConfig withLocation(ShepherdConfig running, ReplicaSpec is) {
        try {
            return running.with(ConfigKey.REPLICA_URL.forName(is.name()), is.url())
                    .with(ConfigKey.REPLICA_USER.forName(is.name()), is.user().isEmpty() ? null : is.user())
                    .with(ConfigKey.REPLICA_PASSWORD.forName(is.name()), is.password().isEmpty() ? null : is.password());
        } catch (ConfigException e) {
            throw new IllegalStateException("the moved replica's settings were valid in the file", e);
        }
    }
}
