package org.shepherd.protocol;

/**
 * One bound statement parameter: the JDBC type the application asked for and the value in its {@link ValueType}
 * representation ({@code null} for SQL NULL).
 */
public record Param(int jdbcType, Object value) {

    public Param {
        ValueType.of(value); // rejects anything outside the protocol's value set
    }

    public static Param nullOf(int jdbcType) {
        return new Param(jdbcType, null);
    }
}
