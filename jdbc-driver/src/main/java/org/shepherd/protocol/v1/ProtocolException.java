package org.shepherd.protocol.v1;

import java.io.IOException;

/**
 * The peer sent bytes that are not a valid protocol v1 frame: a negative or oversized length, an unknown
 * message type, or a payload that does not parse exactly. The connection cannot be trusted afterwards and is
 * closed by whoever catches this.
 */
public class ProtocolException extends IOException {

    private static final long serialVersionUID = 1L;

    public ProtocolException(String message) {
        super(message);
    }

    public ProtocolException(String message, Throwable cause) {
        super(message, cause);
    }
}
