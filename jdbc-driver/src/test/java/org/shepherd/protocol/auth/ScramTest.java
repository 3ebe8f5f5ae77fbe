package org.shepherd.protocol.auth;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Base64;
import org.junit.jupiter.api.Test;

class ScramTest {

    // RFC 7677 section 3
    private static final String CLIENT_NONCE = "rOprNGfwEbeRWgbNEkqO";
    private static final String SERVER_NONCE = "%hvYDpWUa2RaTCAfuxFIlj)hNlF$k0";
    private static final byte[] SALT = Base64.getDecoder().decode("W22ZaJ0SNY7soEsUEjb6gQ==");
    private static final String CLIENT_FIRST = "n,,n=user,r=rOprNGfwEbeRWgbNEkqO";
    private static final String SERVER_FIRST =
            "r=rOprNGfwEbeRWgbNEkqO%hvYDpWUa2RaTCAfuxFIlj)hNlF$k0,s=W22ZaJ0SNY7soEsUEjb6gQ==,i=4096";
    private static final String CLIENT_FINAL = "c=biws,r=rOprNGfwEbeRWgbNEkqO%hvYDpWUa2RaTCAfuxFIlj)hNlF$k0,"
            + "p=dHzbZapWIk4jUhN+Ute9ytag9zjfMHgsqmmiz7AndVQ=";
    private static final String SERVER_FINAL = "v=6rriTRBi23WpRR/wtup+mMhUZUn/dB5nLTJRsjl95G4=";

    @Test
    void rfc7677TestVectorBothSides() throws Exception {
        Scram.Client client = new Scram.Client("user", "pencil", CLIENT_NONCE);
        Scram.Server server = new Scram.Server(ScramCredential.fromPassword("pencil", SALT, 4096), SERVER_NONCE);

        assertThat(client.clientFirstMessage()).isEqualTo(CLIENT_FIRST);
        assertThat(server.serverFirstMessage(CLIENT_FIRST)).isEqualTo(SERVER_FIRST);
        assertThat(server.user()).isEqualTo("user");
        assertThat(client.clientFinalMessage(SERVER_FIRST)).isEqualTo(CLIENT_FINAL);
        assertThat(server.serverFinalMessage(CLIENT_FINAL)).isEqualTo(SERVER_FINAL);
        client.verifyServerFinal(SERVER_FINAL);
    }

    @Test
    void storedVerifierTextRoundTripsAndWorks() throws Exception {
        ScramCredential cred = ScramCredential.fromPassword("s3cret", Scram.newSalt(), 4096);
        String text = cred.toString();
        assertThat(text).startsWith("SCRAM-SHA-256$4096:");
        ScramCredential parsed = ScramCredential.parse(text);
        assertThat(parsed).isEqualTo(cred);
        assertThat(exchange("s3cret", parsed)).isTrue();
    }

    @Test
    void wrongPasswordFailsOnTheServer() throws Exception {
        assertThat(exchange("wrong", ScramCredential.fromPassword("right", Scram.newSalt(), 4096))).isFalse();
    }

    @Test
    void emptyPasswordAndOddUserNamesWork() throws Exception {
        Scram.Client client = new Scram.Client("a,b=c", "");
        Scram.Server server = new Scram.Server(ScramCredential.fromPassword("", Scram.newSalt(), 4096));
        String sf = server.serverFirstMessage(client.clientFirstMessage());
        assertThat(server.user()).isEqualTo("a,b=c");
        client.verifyServerFinal(server.serverFinalMessage(client.clientFinalMessage(sf)));
    }

    @Test
    void clientRejectsAServerThatDoesNotKnowTheVerifier() throws Exception {
        Scram.Client client = new Scram.Client("user", "pencil", CLIENT_NONCE);
        client.clientFinalMessage(SERVER_FIRST);
        assertThatThrownBy(() -> client.verifyServerFinal("v=" + Base64.getEncoder().encodeToString(new byte[32])))
                .isInstanceOf(ScramException.class).hasMessageContaining("signature");
        assertThatThrownBy(() -> client.verifyServerFinal("e=invalid-proof"))
                .isInstanceOf(ScramException.class).hasMessageContaining("invalid-proof");
    }

    @Test
    void clientRejectsANonceThatDoesNotExtendItsOwn() {
        Scram.Client client = new Scram.Client("user", "pencil", CLIENT_NONCE);
        assertThatThrownBy(() -> client.clientFinalMessage("r=other,s=W22ZaJ0SNY7soEsUEjb6gQ==,i=4096"))
                .isInstanceOf(ScramException.class);
        assertThatThrownBy(() -> client.clientFinalMessage("r=" + CLIENT_NONCE + "x,s=W22ZaJ0SNY7soEsUEjb6gQ==,i=0"))
                .isInstanceOf(ScramException.class);
        assertThatThrownBy(() -> client.clientFinalMessage("garbage")).isInstanceOf(ScramException.class);
    }

    @Test
    void serverRejectsChannelBindingAndReplayedNonce() throws Exception {
        Scram.Server server = new Scram.Server(ScramCredential.fromPassword("pencil", SALT, 4096), SERVER_NONCE);
        assertThatThrownBy(() -> server.serverFirstMessage("p=tls-unique,,n=user,r=x")).isInstanceOf(ScramException.class);
        server.serverFirstMessage(CLIENT_FIRST);
        assertThatThrownBy(() -> server.serverFinalMessage(CLIENT_FINAL.replace("$k0", "$k1")))
                .isInstanceOf(ScramException.class).hasMessageContaining("nonce");
    }

    @Test
    void malformedVerifierTextIsRejected() {
        assertThatThrownBy(() -> ScramCredential.parse("md5abcdef")).isInstanceOf(IllegalArgumentException.class);
    }

    private static boolean exchange(String password, ScramCredential stored) throws Exception {
        Scram.Client client = new Scram.Client("bob", password);
        Scram.Server server = new Scram.Server(stored);
        String serverFirst = server.serverFirstMessage(client.clientFirstMessage());
        String clientFinal = client.clientFinalMessage(serverFirst);
        String serverFinal;
        try {
            serverFinal = server.serverFinalMessage(clientFinal);
        } catch (ScramException e) {
            assertThat(e).hasMessageContaining("password authentication failed");
            return false;
        }
        client.verifyServerFinal(serverFinal);
        return true;
    }
}
