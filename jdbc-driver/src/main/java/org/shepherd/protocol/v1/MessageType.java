package org.shepherd.protocol.v1;

/**
 * The message type byte of every frame. Codes below 64 are sent by clients, codes from 64 by the server.
 * The numbers are part of protocol v1 and never change.
 */
public enum MessageType {
    STARTUP(1),
    SCRAM_CLIENT_FIRST(2),
    SCRAM_CLIENT_FINAL(3),
    CANCEL(4),
    EXECUTE(10),
    PREPARE(11),
    EXECUTE_PREPARED(12),
    CLOSE_PREPARED(13),
    EXECUTE_BATCH(14),
    FETCH(15),
    CLOSE_CURSOR(16),
    METADATA(17),
    COMMIT(20),
    ROLLBACK(21),
    SET_AUTO_COMMIT(22),
    SET_READ_ONLY(23),
    PING(30),
    TERMINATE(31),

    AUTH_REQUEST(64),
    SCRAM_SERVER_FIRST(65),
    SCRAM_SERVER_FINAL(66),
    READY(67),
    PREPARE_OK(70),
    RESULT_HEADER(71),
    ROW_BATCH(72),
    UPDATE_RESULT(73),
    BATCH_RESULT(74),
    OK(75),
    ERROR(76),
    PONG(77),
    BATCH_RESULT_WITH_KEYS(78);

    private static final MessageType[] BY_CODE = new MessageType[256];

    static {
        for (MessageType t : values()) {
            BY_CODE[t.code] = t;
        }
    }

    private final int code;

    MessageType(int code) {
        this.code = code;
    }

    public int code() {
        return code;
    }

    /** The type with this code (0..255), or null when protocol v1 has none. */
    public static MessageType ofCode(int code) {
        return code >= 0 && code < BY_CODE.length ? BY_CODE[code] : null;
    }
}
