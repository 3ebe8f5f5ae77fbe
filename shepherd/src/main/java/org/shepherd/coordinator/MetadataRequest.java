package org.shepherd.coordinator;

import java.util.List;

/**
 * A {@link java.sql.DatabaseMetaData} call forwarded to the primary: the method name (e.g. {@code getTables})
 * and its arguments in declaration order ({@code String}, {@code Integer}, {@code Boolean}, {@code String[]} or
 * null). Only methods returning a {@link java.sql.ResultSet} travel this way; scalar properties are answered by
 * the driver from the handshake.
 */
public record MetadataRequest(String method, List<Object> arguments) {
}
