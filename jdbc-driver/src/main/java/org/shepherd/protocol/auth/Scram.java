package org.shepherd.protocol.auth;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * SCRAM-SHA-256 (RFC 5802, RFC 7677) without channel binding, both sides. The password never leaves the client:
 * the client proves knowledge of it, and the server proves it holds the verifier.
 *
 * <pre>
 *  client                                   server
 *  clientFirstMessage()  ---- n,,n=user,r=cnonce ---->  serverFirstMessage(clientFirst)
 *  clientFinalMessage(sf) <--- r=cnonce+snonce,s=salt,i=n ---
 *                        ---- c=biws,r=...,p=proof --->  serverFinalMessage(clientFinal)  (checks the proof)
 *  verifyServerFinal(s)  <--- v=signature ------------
 * </pre>
 * Passwords are used as their UTF-8 bytes (no SASLprep normalisation).
 */
public final class Scram {

    /** Upper bound on the iteration count a client accepts, so a hostile server cannot make it spin for hours. */
    public static final int MAX_ITERATIONS = 10_000_000;

    private static final String GS2_HEADER = "n,,";
    private static final SecureRandom RANDOM = new SecureRandom();

    private Scram() {
    }

    /** A fresh printable nonce from 18 random bytes. */
    public static String newNonce() {
        byte[] b = new byte[18];
        RANDOM.nextBytes(b);
        return Base64.getEncoder().encodeToString(b);
    }

    /** A fresh 16-byte salt for {@link ScramCredential#fromPassword}. */
    public static byte[] newSalt() {
        byte[] b = new byte[16];
        RANDOM.nextBytes(b);
        return b;
    }

    /** The client side of one exchange. */
    public static final class Client {
        private final String password;
        private final String clientNonce;
        private final String clientFirstBare;
        private byte[] expectedServerSignature;

        public Client(String user, String password) {
            this(user, password, newNonce());
        }

        /** With a given nonce: for tests against known vectors only. */
        public Client(String user, String password, String clientNonce) {
            this.password = password;
            this.clientNonce = clientNonce;
            this.clientFirstBare = "n=" + saslName(user) + ",r=" + clientNonce;
        }

        public String clientFirstMessage() {
            return GS2_HEADER + clientFirstBare;
        }

        public String clientFinalMessage(String serverFirst) throws ScramException {
            Map<Character, String> f = attributes(serverFirst);
            String nonce = required(f, 'r');
            if (!nonce.startsWith(clientNonce) || nonce.length() == clientNonce.length()) {
                throw new ScramException("server nonce does not extend the client nonce");
            }
            byte[] salt = base64(required(f, 's'));
            int iterations;
            try {
                iterations = Integer.parseInt(required(f, 'i'));
            } catch (NumberFormatException e) {
                throw new ScramException("invalid iteration count");
            }
            if (iterations < 1 || iterations > MAX_ITERATIONS) {
                throw new ScramException("iteration count out of range: " + iterations);
            }
            byte[] salted = saltedPassword(password, salt, iterations);
            byte[] clientKey = hmac(salted, ascii("Client Key"));
            byte[] storedKey = sha256(clientKey);
            String withoutProof = "c=" + Base64.getEncoder().encodeToString(ascii(GS2_HEADER)) + ",r=" + nonce;
            byte[] authMessage = utf8(clientFirstBare + "," + serverFirst + "," + withoutProof);
            byte[] proof = xor(clientKey, hmac(storedKey, authMessage));
            expectedServerSignature = hmac(hmac(salted, ascii("Server Key")), authMessage);
            return withoutProof + ",p=" + Base64.getEncoder().encodeToString(proof);
        }

        /** Checks that the server knows the verifier; throws when it does not (or reported an error). */
        public void verifyServerFinal(String serverFinal) throws ScramException {
            if (expectedServerSignature == null) throw new ScramException("server-final before client-final");
            Map<Character, String> f = attributes(serverFinal);
            if (f.containsKey('e')) throw new ScramException("server rejected authentication: " + f.get('e'));
            if (!MessageDigest.isEqual(expectedServerSignature, base64(required(f, 'v')))) {
                throw new ScramException("server signature does not match: the server does not know this user's verifier");
            }
        }
    }

    /** The server side of one exchange, for the credential of the user named in the Startup message. */
    public static final class Server {
        private final ScramCredential credential;
        private final String serverNonce;
        private String clientFirstBare;
        private String serverFirst;
        private String nonce;
        private String user;

        public Server(ScramCredential credential) {
            this(credential, newNonce());
        }

        /** With a given nonce part: for tests against known vectors only. */
        public Server(ScramCredential credential, String serverNonce) {
            this.credential = credential;
            this.serverNonce = serverNonce;
        }

        /** The user named in the client-first message (available after {@link #serverFirstMessage}). */
        public String user() {
            return user;
        }

        public String serverFirstMessage(String clientFirst) throws ScramException {
            if (!clientFirst.startsWith(GS2_HEADER)) {
                throw new ScramException("unsupported GS2 header (channel binding and authzid are not supported)");
            }
            clientFirstBare = clientFirst.substring(GS2_HEADER.length());
            Map<Character, String> f = attributes(clientFirstBare);
            user = decodeSaslName(required(f, 'n'));
            String clientNonce = required(f, 'r');
            nonce = clientNonce + serverNonce;
            serverFirst = "r=" + nonce + ",s=" + Base64.getEncoder().encodeToString(credential.salt()) + ",i="
                    + credential.iterations();
            return serverFirst;
        }

        /** Verifies the client's proof and returns the server-final message; throws on a wrong password. */
        public String serverFinalMessage(String clientFinal) throws ScramException {
            if (serverFirst == null) throw new ScramException("client-final before client-first");
            int p = clientFinal.lastIndexOf(",p=");
            if (p < 0) throw new ScramException("client-final without proof");
            String withoutProof = clientFinal.substring(0, p);
            Map<Character, String> f = attributes(clientFinal);
            if (!Base64.getEncoder().encodeToString(ascii(GS2_HEADER)).equals(required(f, 'c'))) {
                throw new ScramException("channel binding mismatch");
            }
            if (!nonce.equals(required(f, 'r'))) throw new ScramException("nonce mismatch");
            byte[] proof = base64(required(f, 'p'));
            byte[] authMessage = utf8(clientFirstBare + "," + serverFirst + "," + withoutProof);
            byte[] clientSignature = hmac(credential.storedKey(), authMessage);
            if (proof.length != clientSignature.length
                    || !MessageDigest.isEqual(sha256(xor(proof, clientSignature)), credential.storedKey())) {
                throw new ScramException("password authentication failed");
            }
            return "v=" + Base64.getEncoder().encodeToString(hmac(credential.serverKey(), authMessage));
        }
    }

    // ---------------------------------------------------------------- primitives

    /** RFC 5802 Hi(): PBKDF2 with HMAC-SHA-256, one block. */
    static byte[] saltedPassword(String password, byte[] salt, int iterations) {
        Mac mac = mac(utf8(password));
        byte[] first = new byte[salt.length + 4];
        System.arraycopy(salt, 0, first, 0, salt.length);
        first[first.length - 1] = 1;
        byte[] u = mac.doFinal(first);
        byte[] result = u.clone();
        for (int i = 1; i < iterations; i++) {
            u = mac.doFinal(u);
            for (int j = 0; j < result.length; j++) result[j] ^= u[j];
        }
        return result;
    }

    static byte[] hmac(byte[] key, byte[] data) {
        return mac(key).doFinal(data);
    }

    private static Mac mac(byte[] key) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            // HMAC pads keys with zeros, so an empty key equals {0}; SecretKeySpec refuses empty keys.
            mac.init(new SecretKeySpec(key.length == 0 ? new byte[1] : key, "HmacSHA256"));
            return mac;
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 unavailable", e);
        }
    }

    static byte[] sha256(byte[] data) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(data);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("SHA-256 unavailable", e);
        }
    }

    private static byte[] xor(byte[] a, byte[] b) {
        byte[] out = new byte[a.length];
        for (int i = 0; i < a.length; i++) out[i] = (byte) (a[i] ^ b[i]);
        return out;
    }

    private static byte[] ascii(String s) {
        return s.getBytes(StandardCharsets.US_ASCII);
    }

    private static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static byte[] base64(String s) throws ScramException {
        try {
            return Base64.getDecoder().decode(s);
        } catch (IllegalArgumentException e) {
            throw new ScramException("invalid base64 in SCRAM message");
        }
    }

    private static String saslName(String user) {
        return user.replace("=", "=3D").replace(",", "=2C");
    }

    private static String decodeSaslName(String name) throws ScramException {
        String s = name.replace("=2C", ",").replace("=3D", "=");
        if (name.replaceAll("=2C|=3D", "").contains("=")) throw new ScramException("invalid user name encoding");
        return s;
    }

    private static Map<Character, String> attributes(String message) throws ScramException {
        Map<Character, String> out = new LinkedHashMap<>();
        for (String part : message.split(",", -1)) {
            if (part.length() < 2 || part.charAt(1) != '=') {
                throw new ScramException("malformed SCRAM message");
            }
            out.putIfAbsent(part.charAt(0), part.substring(2));
        }
        return out;
    }

    private static String required(Map<Character, String> attributes, char name) throws ScramException {
        String v = attributes.get(name);
        if (v == null) throw new ScramException("SCRAM message lacks attribute " + name);
        return v;
    }
}
