package org.shepherd.coordinator;

import java.util.List;
import org.shepherd.protocol.ColumnInfo;

/**
 * What is known about a statement before it runs, for {@link java.sql.PreparedStatement#getParameterMetaData()}
 * and {@link java.sql.PreparedStatement#getMetaData()}.
 *
 * @param parameterCount number of parameters, or -1 when unknown
 * @param parameterTypes {@link java.sql.Types} per parameter, or null when unknown
 * @param columns the result's columns, or null when unknown or when the statement returns no rows
 */
public record StatementDescription(int parameterCount, int[] parameterTypes, List<ColumnInfo> columns) {

    public static final StatementDescription UNKNOWN = new StatementDescription(-1, null, null);

    public StatementDescription {
        columns = columns == null ? null : List.copyOf(columns);
    }
}
