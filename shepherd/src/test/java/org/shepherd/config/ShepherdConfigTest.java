package org.shepherd.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.shepherd.replica.jdbc.ReplicaSpec;

class ShepherdConfigTest {

    private static Map<String, String> threeDerbyReplicas() {
        Map<String, String> m = new TreeMap<>();
        m.put("replica.r1.url", "jdbc:derby:memory:r1;create=true");
        m.put("replica.r2.url", "jdbc:derby:memory:r2;create=true");
        m.put("replica.r3.url", "jdbc:derby:memory:r3;create=true");
        return m;
    }

    @Test
    void defaultsApplyWhenOnlyReplicasAreGiven() throws Exception {
        ShepherdConfig c = ShepherdConfig.fromMap(threeDerbyReplicas());
        assertThat(c.listen()).isEqualTo(new HostPort("127.0.0.1", 7654));
        assertThat(c.f()).isEqualTo(1);
        assertThat(c.mode()).isEqualTo(Mode.CBS);
        assertThat(c.dataDir()).isEqualTo(Path.of("shepherd-data"));
        assertThat(c.maxFrameBytes()).isEqualTo(16 * 1024 * 1024);
        assertThat(c.tlsEnabled()).isFalse();
        assertThat(c.tlsCert()).isNull();
        assertThat(c.users()).isEmpty();
        assertThat(c.replicas()).extracting(ReplicaSpec::name).containsExactly("r1", "r2", "r3");
        assertThat(c.replicas()).extracting(ReplicaSpec::dialect).containsOnly("derby");
        assertThat(c.primary().name()).isEqualTo("r1");
    }

    @Test
    void aConfigFileTakesSecretsFromTheEnvironment(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("shepherd.properties");
        Files.writeString(file, "replica.r1.url=jdbc:derby:memory:r1;create=true\n"
                + "replica.r2.url=jdbc:derby:memory:r2;create=true\nreplica.r3.url=jdbc:derby:memory:r3;create=true\n"
                + "replica.r2.password=${R2_SECRET}\nreplica.r3.password=pre-${R3_SECRET:-fallback}-post\n"
                + "user.app.password=$${not-a-reference}\n");
        Map<String, String> env = Map.of("R2_SECRET", "s3cret");
        ShepherdConfig config = ShepherdConfig.load(file, env::get);
        assertThat(config.replicas()).extracting(ReplicaSpec::password).containsExactly("", "s3cret", "pre-fallback-post");
        assertThat(config.users()).containsEntry("app", "${not-a-reference}");
        assertThat(config.asMap(true)).containsEntry("replica.r2.password", "********");

        Files.writeString(file, "replica.r1.url=jdbc:derby:memory:r1;create=true\nreplica.r1.password=${MISSING}\n");
        assertThatThrownBy(() -> ShepherdConfig.load(file, env::get)).isInstanceOf(ConfigException.class)
                .hasMessageContaining("replica.r1.password").hasMessageContaining("MISSING");
        Files.writeString(file, "replica.r1.url=jdbc:derby:memory:r1;create=true\nreplica.r1.password=a${1bad}\n");
        assertThatThrownBy(() -> ShepherdConfig.load(file, env::get)).isInstanceOf(ConfigException.class)
                .hasMessageContaining("not a reference");
    }

    @Test
    void verifySchemasIsAListOfNames() throws Exception {
        assertThat(ShepherdConfig.fromMap(threeDerbyReplicas()).verifySchemas()).isEmpty();
        Map<String, String> m = threeDerbyReplicas();
        m.put("verify.schemas", " sales, HR ");
        assertThat(ShepherdConfig.fromMap(m).verifySchemas()).containsExactly("sales", "HR");
        m.put("verify.schemas", "sales,,hr");
        assertThatThrownBy(() -> ShepherdConfig.fromMap(m)).isInstanceOf(ConfigException.class).hasMessageContaining("empty name");
        m.put("verify.schemas", "sales.t");
        assertThatThrownBy(() -> ShepherdConfig.fromMap(m)).isInstanceOf(ConfigException.class).hasMessageContaining("not a schema");
    }

    @Test
    void replicaDialectIsInferredFromTheUrlOrTakenFromTheKey() throws Exception {
        Map<String, String> m = new TreeMap<>();
        m.put("mode", "passthrough");
        m.put("replica.a.url", "jdbc:postgresql://127.0.0.1:5432/x");
        m.put("replica.b.url", "jdbc:mariadb://127.0.0.1:3306/x");
        m.put("replica.c.url", "jdbc:weird:thing");
        m.put("replica.c.dialect", "HSQLDB");
        m.put("replica.c.user", "sa");
        m.put("replica.c.password", "pw");
        m.put("primary", "c");
        ShepherdConfig c = ShepherdConfig.fromMap(m);
        assertThat(c.replicas()).extracting(ReplicaSpec::dialect).containsExactly("postgresql", "mariadb", "hsqldb");
        assertThat(c.primary()).isEqualTo(new ReplicaSpec("c", "jdbc:weird:thing", "sa", "pw", "hsqldb"));
        assertThat(c.asMap(true)).containsEntry("replica.c.password", "********");
    }

    @Test
    void twoReplicasNamingOneDatabaseAreRefused(@TempDir Path dir) throws Exception {
        Map<String, String> m = new TreeMap<>(threeDerbyReplicas());
        m.put("replica.r3.url", m.get("replica.r1.url").replace(";create=true", ";create=false"));
        assertThatThrownBy(() -> ShepherdConfig.fromMap(m)).isInstanceOf(ConfigException.class)
                .hasMessageContaining("replicas r1 and r3 name the same database");
        m.put("replica.r3.url", "jdbc:mariadb://127.0.0.1:3306/shop?password=hunter2");
        m.put("replica.r2.url", "jdbc:mariadb://127.0.0.1:3306/shop?password=hunter2");
        assertThatThrownBy(() -> ShepherdConfig.fromMap(m)).isInstanceOf(ConfigException.class)
                .hasMessageContaining("(jdbc:mariadb://127.0.0.1:3306/shop?password=********)")
                .message().doesNotContain("hunter2");
        m.put("replica.r2.url", "jdbc:mariadb://127.0.0.1:3306/shop2");
        assertThat(ShepherdConfig.fromMap(m).replicas()).hasSize(3);

        Path file = dir.resolve("shepherd.properties");
        Files.writeString(file, "replica.r1.url=jdbc:derby:memory:r1\nreplica.r2.url=jdbc:derby:memory:r2\n"
                + "replica.r3.url=jdbc:derby:memory:r3\n");
        assertThat(ShepherdConfig.load(file).source()).contains(file);
        assertThat(ShepherdConfig.load(file).with("f", "1").source()).as("kept by a copy").contains(file);
        assertThat(ShepherdConfig.fromMap(m).source()).isEmpty();
    }

    @Test
    void clientDialectIsTheEnginesOrRefusedWhereNothingTranslates() throws Exception {
        assertThat(ShepherdConfig.fromMap(threeDerbyReplicas()).clientDialect()).as("the primary's").isEmpty();
        Map<String, String> m = new TreeMap<>(threeDerbyReplicas());
        m.put("client.dialect", "PostgreSQL");
        assertThat(ShepherdConfig.fromMap(m).clientDialect()).isEqualTo("postgresql");
        m.put("client.dialect", "oracle");
        assertThatThrownBy(() -> ShepherdConfig.fromMap(m)).isInstanceOf(ConfigException.class)
                .hasMessageContaining("client.dialect=oracle").hasMessageContaining("postgresql");
        Map<String, String> one = new TreeMap<>(Map.of("mode", "passthrough", "replica.r1.url", "jdbc:derby:memory:cd;create=true",
                "client.dialect", "postgresql"));
        assertThatThrownBy(() -> ShepherdConfig.fromMap(one)).isInstanceOf(ConfigException.class)
                .hasMessageContaining("needs mode cbs, ss or serial").hasMessageContaining("client.dialect=derby");
        one.put("client.dialect", "derby");
        assertThat(ShepherdConfig.fromMap(one).clientDialect()).isEqualTo("derby");
    }

    @Test
    void unknownDialectAsksForTheDialectKey() {
        Map<String, String> m = Map.of("mode", "passthrough", "replica.x.url", "jdbc:weird:thing");
        assertThatThrownBy(() -> ShepherdConfig.fromMap(m)).isInstanceOf(ConfigException.class)
                .hasMessageContaining("replica.x.dialect=");
    }

    @Test
    void typoInAKeyIsRefusedWithTheKnownKeys() {
        Map<String, String> m = new TreeMap<>(threeDerbyReplicas());
        m.put("lisen", "127.0.0.1:1");
        assertThatThrownBy(() -> ShepherdConfig.fromMap(m)).isInstanceOf(ConfigException.class)
                .hasMessageContaining("unknown configuration key 'lisen'").hasMessageContaining("listen");
    }

    @Test
    void badValuesNameTheKeyAndWhatIsExpected() {
        Map<String, String> m = new TreeMap<>(threeDerbyReplicas());
        m.put("f", "two");
        assertThatThrownBy(() -> ShepherdConfig.fromMap(m)).hasMessageContaining("f=two is not valid: expected a whole number");
        m.put("f", "1");
        m.put("listen", "7654");
        assertThatThrownBy(() -> ShepherdConfig.fromMap(m)).hasMessageContaining("expected host:port");
        m.put("listen", "127.0.0.1:7654");
        m.put("mode", "fast");
        assertThatThrownBy(() -> ShepherdConfig.fromMap(m)).hasMessageContaining("passthrough|cbs|ss|serial");
        m.put("mode", "cbs");
        m.put("user.bob.password", "");
        assertThatThrownBy(() -> ShepherdConfig.fromMap(m)).hasMessageContaining("user.bob.password=******** is not valid");
    }

    @Test
    void adminActionsNeedAnAdminUserUnlessThereAreNoUsers() throws Exception {
        Map<String, String> m = new TreeMap<>(threeDerbyReplicas());
        assertThat(ShepherdConfig.fromMap(m).mayAdminister("anyone")).as("no users: loopback, no authentication").isTrue();
        m.put("user.app.password", "s3cret");
        m.put("user.ops.password", "0ps");
        m.put("user.ops.admin", "true");
        ShepherdConfig c = ShepherdConfig.fromMap(m);
        assertThat(c.mayAdminister("ops")).isTrue();
        assertThat(c.mayAdminister("app")).isFalse();
        m.put("user.ghost.admin", "true");
        assertThatThrownBy(() -> ShepherdConfig.fromMap(m)).isInstanceOf(ConfigException.class)
                .hasMessageContaining("user.ghost.admin=true names no user: add user.ghost.password=<secret>");
    }

    @Test
    void aWalRetentionBoundBelowTwoSegmentsIsRefused() throws Exception {
        Map<String, String> m = new TreeMap<>(threeDerbyReplicas());
        m.put("wal.segment.bytes.max", "65536");
        m.put("wal.retain.bytes.max", "100000");
        assertThatThrownBy(() -> ShepherdConfig.fromMap(m)).isInstanceOf(ConfigException.class)
                .hasMessageContaining("wal.retain.bytes.max=100000 is below twice wal.segment.bytes.max=65536");
        m.put("wal.retain.bytes.max", "131072");
        assertThat(ShepherdConfig.fromMap(m).walRetainBytesMax()).isEqualTo(131072);
        m.put("wal.retain.bytes.max", "0");
        assertThat(ShepherdConfig.fromMap(m).walRetainBytesMax()).isZero();
    }

    @Test
    void nonLoopbackListenWithoutUsersIsRefusedWithWhatToConfigure() throws Exception {
        Map<String, String> m = new TreeMap<>(threeDerbyReplicas());
        m.put("listen", "0.0.0.0:7654");
        assertThatThrownBy(() -> ShepherdConfig.fromMap(m)).isInstanceOf(ConfigException.class)
                .hasMessageContaining("add user.<name>.password=");
        m.put("user.app.password", "s3cret");
        assertThat(ShepherdConfig.fromMap(m).users()).containsEntry("app", "s3cret");
        m.put("listen", "localhost:7654");
        m.remove("user.app.password");
        assertThat(ShepherdConfig.fromMap(m).listen().isLoopback()).isTrue();
    }

    @Test
    void replicatedModesNeedTwoFPlusOneReplicas() throws Exception {
        Map<String, String> m = new TreeMap<>(threeDerbyReplicas());
        m.put("f", "2");
        assertThatThrownBy(() -> ShepherdConfig.fromMap(m)).hasMessageContaining("needs at least 2f+1 = 5 replicas but 3");
        m.put("mode", "passthrough");
        assertThat(ShepherdConfig.fromMap(m).mode()).isEqualTo(Mode.PASSTHROUGH);
    }

    @Test
    void noReplicasOrAReplicaWithoutUrlOrAnUnknownPrimaryIsRefused() {
        assertThatThrownBy(() -> ShepherdConfig.fromMap(Map.of("mode", "passthrough")))
                .hasMessageContaining("no replicas configured");
        assertThatThrownBy(() -> ShepherdConfig.fromMap(Map.of("mode", "passthrough", "replica.r1.user", "u")))
                .hasMessageContaining("add replica.r1.url=");
        Map<String, String> m = new TreeMap<>(threeDerbyReplicas());
        m.put("primary", "r9");
        assertThatThrownBy(() -> ShepherdConfig.fromMap(m)).hasMessageContaining("primary=r9 names no configured replica");
    }

    @Test
    void tlsNeedsReadableCertAndKey(@TempDir Path dir) throws Exception {
        Map<String, String> m = new TreeMap<>(threeDerbyReplicas());
        m.put("tls.enabled", "true");
        assertThatThrownBy(() -> ShepherdConfig.fromMap(m)).hasMessageContaining("tls.enabled=true needs tls.cert=");
        m.put("tls.cert", dir.resolve("cert.pem").toString());
        m.put("tls.key", dir.resolve("key.pem").toString());
        assertThatThrownBy(() -> ShepherdConfig.fromMap(m)).hasMessageContaining("does not exist");
        Files.writeString(dir.resolve("cert.pem"), "x");
        Files.writeString(dir.resolve("key.pem"), "x");
        assertThat(ShepherdConfig.fromMap(m).tlsKey()).isEqualTo(dir.resolve("key.pem"));
    }

    @Test
    void loadReadsAPropertiesFileAndNamesAMissingOne(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("shepherd.properties");
        Files.writeString(file, "# comment\nmode = passthrough\nreplica.main.url = jdbc:derby:memory:m;create=true\n"
                + "workers.max = 8\n");
        ShepherdConfig c = ShepherdConfig.load(file);
        assertThat(c.workersMax()).isEqualTo(8);
        assertThat(c.primary().name()).isEqualTo("main");
        assertThat(c.with("workers.max", "9").workersMax()).isEqualTo(9);
        assertThatThrownBy(() -> ShepherdConfig.load(dir.resolve("nope.properties")))
                .hasMessageContaining("does not exist");
    }
}
