package org.shepherd.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.List;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.shepherd.protocol.v1.Message;

/** ssl=true: the driver speaks TLS from the first byte and checks the server's certificate. */
class TlsTest {

    private static final String STORE_PASSWORD = "changeit";

    @TempDir
    static Path dir;

    private static Path serverStore;
    private static Path otherHostStore;
    private static Path trustStore;

    @BeforeAll
    static void makeCertificates() throws Exception {
        serverStore = dir.resolve("server.p12");
        otherHostStore = dir.resolve("other.p12");
        trustStore = dir.resolve("trust.p12");
        keytool("-genkeypair", "-alias", "shepherd", "-keyalg", "EC", "-groupname", "secp256r1", "-dname", "CN=localhost",
                "-ext", "SAN=ip:127.0.0.1,dns:localhost", "-validity", "2", "-keystore", serverStore.toString(),
                "-storetype", "PKCS12", "-storepass", STORE_PASSWORD);
        keytool("-genkeypair", "-alias", "other", "-keyalg", "EC", "-groupname", "secp256r1", "-dname", "CN=other.example",
                "-ext", "SAN=dns:other.example", "-validity", "2", "-keystore", otherHostStore.toString(),
                "-storetype", "PKCS12", "-storepass", STORE_PASSWORD);
        KeyStore trust = KeyStore.getInstance("PKCS12");
        trust.load(null, null);
        trust.setCertificateEntry("shepherd", load(serverStore).getCertificate("shepherd"));
        trust.setCertificateEntry("other", load(otherHostStore).getCertificate("other"));
        try (OutputStream out = Files.newOutputStream(trustStore)) {
            trust.store(out, STORE_PASSWORD.toCharArray());
        }
    }

    private static KeyStore load(Path store) throws Exception {
        KeyStore ks = KeyStore.getInstance("PKCS12");
        try (InputStream in = Files.newInputStream(store)) {
            ks.load(in, STORE_PASSWORD.toCharArray());
        }
        return ks;
    }

    private static void keytool(String... args) throws Exception {
        List<String> cmd = new java.util.ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "keytool").toString());
        cmd.addAll(List.of(args));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes());
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as(out).isZero();
    }

    private static SSLContext serverContext() throws Exception {
        return serverContext(serverStore);
    }

    private static SSLContext serverContext(Path store) throws Exception {
        KeyStore ks = load(store);
        KeyManagerFactory kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
        kmf.init(ks, STORE_PASSWORD.toCharArray());
        SSLContext ctx = SSLContext.getInstance("TLS");
        ctx.init(kmf.getKeyManagers(), null, null);
        return ctx;
    }

    @Test
    void connectsOverTlsWithTheTrustStoreAndHostnameVerification() throws Exception {
        try (ScriptedServer server = new ScriptedServer((req, c) -> ScriptedServer.one(new Message.Pong()), serverContext());
             Connection c = DriverManager.getConnection(server.url() + "&ssl=true&sslTrustStore=" + trustStore
                     + "&sslTrustStorePassword=" + STORE_PASSWORD)) {
            assertThat(c.isValid(5)).isTrue();
        }
    }

    @Test
    void anUntrustedCertificateIsRefused() throws Exception {
        try (ScriptedServer server = new ScriptedServer((req, c) -> ScriptedServer.one(new Message.Pong()), serverContext())) {
            assertThatThrownBy(() -> DriverManager.getConnection(server.url() + "&ssl=true"))
                    .isInstanceOf(SQLException.class)
                    .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("08001"));
        }
    }

    @Test
    void aCertificateForAnotherHostIsRefusedUnlessVerificationIsOff() throws Exception {
        try (ScriptedServer server = new ScriptedServer((req, c) -> ScriptedServer.one(new Message.Pong()),
                serverContext(otherHostStore))) {
            String url = server.url() + "&ssl=true&sslTrustStore=" + trustStore + "&sslTrustStorePassword=" + STORE_PASSWORD;
            assertThatThrownBy(() -> DriverManager.getConnection(url)).isInstanceOf(SQLException.class);
            try (Connection c = DriverManager.getConnection(url + "&sslHostnameVerification=false")) {
                assertThat(c.isValid(5)).isTrue();
            }
        }
    }

    @Test
    void aPlainClientAgainstATlsServerFailsCleanly() throws Exception {
        try (ScriptedServer server = new ScriptedServer((req, c) -> ScriptedServer.one(new Message.Pong()), serverContext())) {
            assertThatThrownBy(() -> DriverManager.getConnection(server.url() + "&loginTimeout=5"))
                    .isInstanceOf(SQLException.class);
        }
    }
}
