/**
 * The value model shared by the JDBC driver and the shepherd: column metadata, parameters and the closed set of
 * value types. The wire encoding of protocol version 1 lives in {@code org.shepherd.protocol.v1}.
 */
package org.shepherd.protocol;
