package org.shepherd.protocol.auth;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Arrays;
import java.util.Base64;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What a server stores for a user instead of the password (RFC 5802 section 3): salt, iteration count, StoredKey
 * and ServerKey. Text form, as PostgreSQL writes it: {@code SCRAM-SHA-256$<iterations>:<salt>$<StoredKey>:<ServerKey>}
 * with base64 salt and keys.
 */
public final class ScramCredential {

    public static final int MIN_ITERATIONS = 4096;

    private static final String B64 = "([A-Za-z0-9+/=]+)";
    private static final Pattern TEXT = Pattern.compile("SCRAM-SHA-256\\$(\\d{1,9}):" + B64 + "\\$" + B64 + ":" + B64);

    private final int iterations;
    private final byte[] salt;
    private final byte[] storedKey;
    private final byte[] serverKey;

    public ScramCredential(int iterations, byte[] salt, byte[] storedKey, byte[] serverKey) {
        if (iterations < 1 || salt.length == 0 || storedKey.length != 32 || serverKey.length != 32) {
            throw new IllegalArgumentException("invalid SCRAM-SHA-256 credential");
        }
        this.iterations = iterations;
        this.salt = salt.clone();
        this.storedKey = storedKey.clone();
        this.serverKey = serverKey.clone();
    }

    /** Derives the credential from a password (the password itself is not kept). */
    public static ScramCredential fromPassword(String password, byte[] salt, int iterations) {
        byte[] salted = Scram.saltedPassword(password, salt, iterations);
        byte[] clientKey = Scram.hmac(salted, "Client Key".getBytes(StandardCharsets.US_ASCII));
        byte[] serverKey = Scram.hmac(salted, "Server Key".getBytes(StandardCharsets.US_ASCII));
        return new ScramCredential(iterations, salt, Scram.sha256(clientKey), serverKey);
    }

    /** Parses the text form; throws IllegalArgumentException saying what is wrong. */
    public static ScramCredential parse(String text) {
        Matcher m = TEXT.matcher(text.trim());
        if (!m.matches()) {
            throw new IllegalArgumentException("not a SCRAM-SHA-256 verifier (expected SCRAM-SHA-256$<iterations>:<salt>"
                    + "$<StoredKey>:<ServerKey>)");
        }
        Base64.Decoder b64 = Base64.getDecoder();
        return new ScramCredential(Integer.parseInt(m.group(1)), b64.decode(m.group(2)), b64.decode(m.group(3)),
                b64.decode(m.group(4)));
    }

    public int iterations() {
        return iterations;
    }

    public byte[] salt() {
        return salt.clone();
    }

    byte[] storedKey() {
        return storedKey;
    }

    byte[] serverKey() {
        return serverKey;
    }

    /** The text form accepted by {@link #parse}. */
    @Override
    public String toString() {
        Base64.Encoder b64 = Base64.getEncoder();
        return "SCRAM-SHA-256$" + iterations + ":" + b64.encodeToString(salt) + "$" + b64.encodeToString(storedKey) + ":"
                + b64.encodeToString(serverKey);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof ScramCredential c && iterations == c.iterations && Arrays.equals(salt, c.salt)
                && MessageDigest.isEqual(storedKey, c.storedKey) && MessageDigest.isEqual(serverKey, c.serverKey);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(storedKey);
    }
}
