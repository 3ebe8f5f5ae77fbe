package org.shepherd.coordinator.cbs;

import java.util.List;
import org.shepherd.coordinator.ExecOptions;
import org.shepherd.protocol.Param;

/**
 * A client statement as every replica runs it.
 *
 * @param sql the SQL text (the client's, until per-dialect translation is wired in)
 * @param params bound parameters; empty runs it as a plain statement
 * @param options the client's statement options
 * @param orderKeyColumns labels of the columns the query orders by (empty: row order is not voted)
 */
public record JdbcStatement(String sql, List<Param> params, ExecOptions options, List<String> orderKeyColumns) {

    public JdbcStatement {
        params = List.copyOf(params);
        orderKeyColumns = List.copyOf(orderKeyColumns);
    }
}
