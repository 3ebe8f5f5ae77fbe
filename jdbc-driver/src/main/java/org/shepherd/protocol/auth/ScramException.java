package org.shepherd.protocol.auth;

/** A SCRAM exchange failed: malformed message, nonce mismatch, wrong proof (wrong password) or bad server signature. */
public class ScramException extends Exception {

    private static final long serialVersionUID = 1L;

    public ScramException(String message) {
        super(message);
    }
}
