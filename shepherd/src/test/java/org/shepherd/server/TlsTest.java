package org.shepherd.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.shepherd.server.ServerTestSupport.PASSWORD;
import static org.shepherd.server.ServerTestSupport.USER;

import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.Key;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Base64;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** TLS with a self-signed certificate made here by the JDK's keytool; the driver trusts exactly that certificate. */
class TlsTest {

    private static final String STORE_PASSWORD = "changeit";

    @Test
    void clientsConnectOverTlsAndPlainClientsAreRefused(@TempDir Path dir) throws Exception {
        Path serverStore = dir.resolve("server.p12");
        Process keytool = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "keytool").toString(),
                "-genkeypair", "-alias", "shepherd", "-keyalg", "EC", "-groupname", "secp256r1", "-dname", "CN=localhost",
                "-ext", "SAN=ip:127.0.0.1,dns:localhost", "-validity", "2", "-storetype", "PKCS12",
                "-keystore", serverStore.toString(), "-storepass", STORE_PASSWORD, "-keypass", STORE_PASSWORD)
                .redirectErrorStream(true).start();
        String keytoolOutput = new String(keytool.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(keytool.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(keytool.exitValue()).as(keytoolOutput).isZero();

        KeyStore ks = KeyStore.getInstance("PKCS12");
        try (InputStream in = Files.newInputStream(serverStore)) {
            ks.load(in, STORE_PASSWORD.toCharArray());
        }
        Key key = ks.getKey("shepherd", STORE_PASSWORD.toCharArray());
        Certificate cert = ks.getCertificate("shepherd");
        Path certPem = dir.resolve("cert.pem");
        Path keyPem = dir.resolve("key.pem");
        Files.writeString(certPem, pem("CERTIFICATE", cert.getEncoded()));
        Files.writeString(keyPem, pem("PRIVATE KEY", key.getEncoded()));
        KeyStore trust = KeyStore.getInstance("PKCS12");
        trust.load(null, null);
        trust.setCertificateEntry("shepherd", cert);
        Path trustStore = dir.resolve("trust.p12");
        try (OutputStream out = Files.newOutputStream(trustStore)) {
            trust.store(out, STORE_PASSWORD.toCharArray());
        }

        ShepherdServer server = ShepherdServer.create(ServerTestSupport.config(Map.of("tls.enabled", "true",
                "tls.cert", certPem.toString(), "tls.key", keyPem.toString())));
        try {
            server.start();
            String base = server.jdbcUrl("shepherd") + "?user=" + USER + "&password=" + PASSWORD;
            String tlsUrl = base + "&ssl=true&sslTrustStore=" + trustStore + "&sslTrustStorePassword=" + STORE_PASSWORD;
            try (Connection c = DriverManager.getConnection(tlsUrl); Statement st = c.createStatement();
                 ResultSet rs = st.executeQuery("VALUES 'over tls'")) {
                assertThat(rs.next()).isTrue();
                assertThat(rs.getString(1)).isEqualTo("over tls");
            }
            assertThatThrownBy(() -> DriverManager.getConnection(base + "&loginTimeout=5"))
                    .isInstanceOf(SQLException.class);
            try (Connection c = DriverManager.getConnection(tlsUrl)) {
                assertThat(c.isValid(5)).isTrue();
            }
        } finally {
            server.close();
        }
    }

    private static String pem(String type, byte[] der) {
        return "-----BEGIN " + type + "-----\n" + Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII))
                .encodeToString(der) + "\n-----END " + type + "-----\n";
    }
}
