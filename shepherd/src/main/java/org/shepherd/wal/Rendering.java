package org.shepherd.wal;

import java.util.List;
import java.util.Objects;
import org.shepherd.protocol.Param;

/**
 * One statement as the replicas of one SQL dialect run it.
 *
 * @param dialect the dialect's name, e.g. {@code "derby"}, {@code "mariadb"}
 * @param sql the statement text in that dialect
 * @param params the bound parameters, in order
 * @param ignorable which error of the replica means "already done"
 * @param dropsReferencingKeys whether the replica drops the foreign keys that reference the table {@code sql} drops
 *     before it runs it ({@code DROP TABLE ... CASCADE})
 */
public record Rendering(String dialect, String sql, List<Param> params, IgnorableError ignorable, boolean dropsReferencingKeys) {

    public Rendering(String dialect, String sql, List<Param> params, IgnorableError ignorable) {
        this(dialect, sql, params, ignorable, false);
    }

    public Rendering {
        Objects.requireNonNull(dialect, "dialect");
        Objects.requireNonNull(sql, "sql");
        params = List.copyOf(params);
        Objects.requireNonNull(ignorable, "ignorable");
    }
}
