package org.shepherd.protocol.v1;

/** Constants of wire protocol version 1 (see docs/protocol.md). */
public final class Protocol {

    /** The four bytes that open every {@link Message.Startup} payload: ASCII "SHEP". */
    public static final int MAGIC = 0x53484550;

    public static final int MAJOR = 1;

    public static final int MINOR = 0;

    public static final int DEFAULT_PORT = 7654;

    /** Frame header: int32 length of the rest + uint8 message type. */
    public static final int HEADER_BYTES = 5;

    /** Default bound on a frame's length field (message type byte + payload). */
    public static final int DEFAULT_MAX_FRAME_BYTES = 16 * 1024 * 1024;

    /** Rows per {@link Message.RowBatch} when the client asks for fetch size 0. */
    public static final int DEFAULT_FETCH_SIZE = 1000;

    /** The only authentication mechanism of protocol v1. */
    public static final String SCRAM_SHA_256 = "SCRAM-SHA-256";

    private Protocol() {
    }
}
