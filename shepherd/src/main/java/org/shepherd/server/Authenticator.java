package org.shepherd.server;

import java.util.HashMap;
import java.util.Map;
import org.shepherd.protocol.auth.Scram;
import org.shepherd.protocol.auth.ScramCredential;

/**
 * The SCRAM-SHA-256 verifiers of the configured client users, derived once at start-up. With no users
 * configured (allowed on loopback only) every user name authenticates with an empty password.
 */
final class Authenticator {

    private final Map<String, ScramCredential> credentials = new HashMap<>();
    private final ScramCredential unknownUser;
    private final ScramCredential anyUser;

    Authenticator(Map<String, String> userPasswords) {
        for (Map.Entry<String, String> e : userPasswords.entrySet()) {
            credentials.put(e.getKey(),
                    ScramCredential.fromPassword(e.getValue(), Scram.newSalt(), ScramCredential.MIN_ITERATIONS));
        }
        // An unknown user goes through the same exchange and fails at the proof, like a wrong password.
        unknownUser = ScramCredential.fromPassword(Scram.newNonce(), Scram.newSalt(), ScramCredential.MIN_ITERATIONS);
        anyUser = userPasswords.isEmpty()
                ? ScramCredential.fromPassword("", Scram.newSalt(), ScramCredential.MIN_ITERATIONS) : null;
    }

    /** A SCRAM server exchange for the user named in the Startup message. */
    Scram.Server exchangeFor(String user) {
        if (anyUser != null) return new Scram.Server(anyUser);
        return new Scram.Server(credentials.getOrDefault(user, unknownUser));
    }
}
