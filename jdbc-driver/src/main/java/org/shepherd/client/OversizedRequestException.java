package org.shepherd.client;

import java.sql.SQLException;
import org.shepherd.protocol.v1.Message;

/** A request whose frame is larger than the connection's {@code maxFrameBytes}; thrown before anything was sent. */
public final class OversizedRequestException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final int frameBytes;
    private final int maxFrameBytes;

    OversizedRequestException(Message request, int frameBytes, int maxFrameBytes) {
        super(request.type() + " of " + frameBytes + " bytes", null, false, false);
        this.frameBytes = frameBytes;
        this.maxFrameBytes = maxFrameBytes;
    }

    /** SQLState 54000, saying what to change; the connection stays usable. */
    public SQLException toSqlException() {
        return new SQLException("the request (statement and parameters) takes " + frameBytes + " bytes, more than maxFrameBytes ("
                + maxFrameBytes + "); it was not sent and the connection stays open. Send less per statement (e.g. rows in"
                + " a batch, a large value in parts), or raise maxFrameBytes on the client and protocol.max.frame.bytes on"
                + " the shepherd", "54000");
    }
}
