package org.shepherd.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.sql.Driver;
import java.sql.DriverManager;
import java.sql.DriverPropertyInfo;
import java.sql.SQLException;
import java.util.Arrays;
import java.util.Properties;
import java.util.ServiceLoader;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

class ShepherdDriverTest {

    private final ShepherdDriver driver = new ShepherdDriver();

    @Test
    void foundThroughServiceLoaderAndDriverManager() throws Exception {
        assertThat(ServiceLoader.load(Driver.class).stream().map(p -> p.type().getName()))
                .contains(ShepherdDriver.class.getName());
        assertThat(DriverManager.getDriver("jdbc:shepherd://localhost/db")).isInstanceOf(ShepherdDriver.class);
    }

    @Test
    void acceptsOnlyItsPrefixAndIgnoresForeignUrls() throws Exception {
        assertThat(driver.acceptsURL("jdbc:shepherd://h/db")).isTrue();
        assertThat(driver.acceptsURL("jdbc:postgresql://h/db")).isFalse();
        assertThat(driver.acceptsURL(null)).isFalse();
        assertThat(driver.connect("jdbc:derby:memory:x", new Properties())).isNull();
    }

    @Test
    void parsesHostPortDatabaseAndParameters() throws Exception {
        ShepherdUrl u = ShepherdUrl.parse("jdbc:shepherd://db.example:7000/sales?user=bob&password=a%26b%3Dc+d&fetchSize=50",
                null);
        assertThat(u.host()).isEqualTo("db.example");
        assertThat(u.port()).isEqualTo(7000);
        assertThat(u.database()).isEqualTo("sales");
        assertThat(u.properties().getProperty("user")).isEqualTo("bob");
        assertThat(u.properties().getProperty("password")).isEqualTo("a&b=c+d");
        assertThat(u.properties().getProperty("fetchSize")).isEqualTo("50");
    }

    @Test
    void defaultPortIpv6AndUrlOverridesInfo() throws Exception {
        Properties info = new Properties();
        info.setProperty("user", "fromInfo");
        info.setProperty("password", "pw");
        info.setProperty("someToolProperty", "kept, not ours");
        ShepherdUrl u = ShepherdUrl.parse("jdbc:shepherd://[::1]/db?user=fromUrl", info);
        assertThat(u.host()).isEqualTo("::1");
        assertThat(u.port()).isEqualTo(7654);
        assertThat(u.properties().getProperty("user")).isEqualTo("fromUrl");
        assertThat(u.properties().getProperty("password")).isEqualTo("pw");
        assertThat(ShepherdUrl.parse("jdbc:shepherd://[::1]:9/db", null).port()).isEqualTo(9);
        assertThat(ShepherdUrl.parse("jdbc:shepherd://localhost/db", null).port()).isEqualTo(7654);
    }

    @Test
    void badUrlsSayWhatIsWrong() {
        assertThatThrownBy(() -> ShepherdUrl.parse("jdbc:shepherd://host", null)).hasMessageContaining("database");
        assertThatThrownBy(() -> ShepherdUrl.parse("jdbc:shepherd://host:0/db", null)).hasMessageContaining("port");
        assertThatThrownBy(() -> ShepherdUrl.parse("jdbc:shepherd://host:x/db", null)).hasMessageContaining("port");
        assertThatThrownBy(() -> ShepherdUrl.parse("jdbc:shepherd:///db", null)).hasMessageContaining("host");
        assertThatThrownBy(() -> ShepherdUrl.parse("jdbc:shepherd://h/db?fetchsize=5", null))
                .isInstanceOf(SQLException.class).hasMessageContaining("unknown parameter 'fetchsize'");
        assertThatThrownBy(() -> ShepherdUrl.parse("jdbc:shepherd://h/db?user=a&password=secret&bogus=1", null))
                .hasMessageNotContaining("secret").hasMessageContaining("password=***");
    }

    @Test
    void propertyInfoComesFromTheEnum() throws Exception {
        DriverPropertyInfo[] info = driver.getPropertyInfo("jdbc:shepherd://h/db?fetchSize=7", new Properties());
        assertThat(Arrays.stream(info).map(i -> i.name).collect(Collectors.toList())).containsExactlyElementsOf(
                Arrays.stream(DriverProperty.values()).map(DriverProperty::propertyName).collect(Collectors.toList()));
        DriverPropertyInfo fetch = Arrays.stream(info).filter(i -> i.name.equals("fetchSize")).findFirst().orElseThrow();
        assertThat(fetch.value).isEqualTo("7");
        DriverPropertyInfo ssl = Arrays.stream(info).filter(i -> i.name.equals("ssl")).findFirst().orElseThrow();
        assertThat(ssl.value).isEqualTo("false");
        assertThat(ssl.choices).containsExactly("true", "false");
        assertThat(Arrays.stream(info).filter(i -> i.name.equals("user")).findFirst().orElseThrow().required).isTrue();
        for (String required : new String[] {"user", "password", "loginTimeout", "connectTimeout", "socketTimeout",
            "fetchSize", "maxFrameBytes", "ssl", "sslTrustStore", "sslTrustStorePassword", "sslHostnameVerification",
            "applicationName"}) {
            assertThat(DriverProperty.forName(required)).as(required).isNotNull();
        }
    }

    @Test
    void markdownTableListsEveryProperty() {
        String table = DriverProperty.markdownTable();
        assertThat(table).startsWith("| property | default | required | description |");
        for (DriverProperty p : DriverProperty.values()) {
            assertThat(table).contains("| `" + p.propertyName() + "` |");
        }
        assertThat(table.lines().count()).isEqualTo(DriverProperty.values().length + 2);
        assertThat(table).as("no raw angle brackets: GitHub renders them as HTML tags")
                .doesNotContain("<").doesNotContain(">").contains("user.&lt;name&gt;.password");
    }

    @Test
    void productVersionIsTheEnginesWhenTheServerSentIt() {
        assertThat(ShepherdDatabaseMetaData.productVersion("0.1.0", "Apache Derby", "10.16.1.1")).isEqualTo("10.16.1.1");
        assertThat(ShepherdDatabaseMetaData.productVersion("0.1.0", "Shepherd", "")).isEqualTo("0.1.0");
        assertThat(ShepherdDatabaseMetaData.productVersion("0.1.0", "", "")).isEqualTo("0.1.0");
    }

    @Test
    void badPropertyValuesAreRejected() {
        Properties p = new Properties();
        p.setProperty("fetchSize", "-1");
        p.setProperty("ssl", "yes");
        assertThatThrownBy(() -> DriverProperty.FETCH_SIZE.getInt(p)).hasMessageContaining("fetchSize");
        assertThatThrownBy(() -> DriverProperty.SSL.getBoolean(p)).hasMessageContaining("true or false");
    }

    @Test
    void connectingWithoutAUserSaysSo() {
        assertThatThrownBy(() -> driver.connect("jdbc:shepherd://127.0.0.1:1/db", new Properties()))
                .hasMessageContaining("no user");
    }

    @Test
    void connectionRefusedIsAConnectionError() {
        assertThatThrownBy(() -> driver.connect("jdbc:shepherd://127.0.0.1:1/db?user=a&connectTimeout=2", new Properties()))
                .isInstanceOf(SQLException.class)
                .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("08001"));
    }

    @Test
    void placeholdersAreCountedOutsideLiteralsAndComments() {
        assertThat(SqlPlaceholders.count("SELECT ?, '?', \"?\" FROM t WHERE a = ? -- ?\n AND b = /* ? */ ?", false))
                .isEqualTo(3);
        assertThat(SqlPlaceholders.count("SELECT 'it''s ?' , ?", false)).isEqualTo(1);
        assertThat(SqlPlaceholders.count("SELECT 'C:\\', ?", false)).isEqualTo(1);
        assertThat(SqlPlaceholders.count("SELECT 'a\\'?', ?", true)).isEqualTo(1);
    }

    @Test
    void dataSourceBuildsTheUrlAndRejectsUnknownProperties() {
        ShepherdDataSource ds = new ShepherdDataSource();
        ds.setServerName("::1");
        ds.setPortNumber(7000);
        ds.setDatabaseName("sales");
        assertThat(ds.getUrl()).isEqualTo("jdbc:shepherd://[::1]:7000/sales");
        ds.setUrl("jdbc:shepherd://h/d");
        assertThat(ds.getUrl()).isEqualTo("jdbc:shepherd://h/d");
        ds.setProperty("fetchSize", "10");
        assertThatThrownBy(() -> ds.setProperty("fetchsize", "10")).isInstanceOf(IllegalArgumentException.class);
        ds.setLoginTimeout(5);
        assertThat(ds.getLoginTimeout()).isEqualTo(5);
    }
}
