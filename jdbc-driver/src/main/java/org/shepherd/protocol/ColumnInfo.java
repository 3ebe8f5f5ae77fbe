package org.shepherd.protocol;

/**
 * Metadata of one result column, as the shepherd reports it to clients and as the voter compares it.
 *
 * @param label column label (the AS name, else the column name)
 * @param name underlying column name, or the label when the engine does not know it
 * @param jdbcType a {@link java.sql.Types} constant as reported by the primary replica
 * @param typeName the vendor type name as reported by the primary replica
 * @param precision {@link java.sql.ResultSetMetaData#getPrecision}
 * @param scale {@link java.sql.ResultSetMetaData#getScale}
 * @param nullable one of {@link java.sql.ResultSetMetaData#columnNoNulls}, {@code columnNullable},
 *     {@code columnNullableUnknown}
 * @param tableName the table, or "" when unknown
 * @param autoIncrement whether the column is an identity / auto-increment column
 */
public record ColumnInfo(
        String label,
        String name,
        int jdbcType,
        String typeName,
        int precision,
        int scale,
        int nullable,
        String tableName,
        boolean autoIncrement) {

    public ColumnInfo {
        if (label == null || name == null || typeName == null || tableName == null) {
            throw new IllegalArgumentException("ColumnInfo fields must not be null (use \"\" for unknown)");
        }
    }

    /** The {@link ValueType} that values of this column travel as. */
    public ValueType valueType() {
        return ValueType.forJdbcType(jdbcType);
    }
}
