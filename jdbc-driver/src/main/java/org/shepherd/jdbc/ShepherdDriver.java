package org.shepherd.jdbc;

import java.sql.Connection;
import java.sql.Driver;
import java.sql.DriverManager;
import java.sql.DriverPropertyInfo;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.util.Properties;
import java.util.logging.Logger;
import org.shepherd.client.DriverVersion;

/**
 * The JDBC entry point, found through {@code META-INF/services/java.sql.Driver}. URL:
 * {@code jdbc:shepherd://host[:port]/database[?user=..&password=..&...]}; properties: {@link DriverProperty}.
 */
public final class ShepherdDriver implements Driver {

    static {
        try {
            DriverManager.registerDriver(new ShepherdDriver());
        } catch (SQLException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    @Override
    public Connection connect(String url, Properties info) throws SQLException {
        if (!acceptsURL(url)) return null;
        ShepherdUrl parsed = ShepherdUrl.parse(url, info);
        if (parsed.properties().getProperty(DriverProperty.LOGIN_TIMEOUT.propertyName()) == null
                && DriverManager.getLoginTimeout() > 0) {
            parsed.properties().setProperty(DriverProperty.LOGIN_TIMEOUT.propertyName(),
                    Integer.toString(DriverManager.getLoginTimeout()));
        }
        return ShepherdConnection.open(parsed, url);
    }

    @Override
    public boolean acceptsURL(String url) {
        return ShepherdUrl.accepts(url);
    }

    @Override
    public DriverPropertyInfo[] getPropertyInfo(String url, Properties info) throws SQLException {
        Properties props = acceptsURL(url) ? ShepherdUrl.parse(url, info).properties() : new Properties();
        if (!acceptsURL(url) && info != null) props.putAll(info);
        DriverProperty[] all = DriverProperty.values();
        DriverPropertyInfo[] out = new DriverPropertyInfo[all.length];
        for (int i = 0; i < all.length; i++) out[i] = all[i].toDriverPropertyInfo(props);
        return out;
    }

    @Override
    public int getMajorVersion() {
        return DriverVersion.MAJOR;
    }

    @Override
    public int getMinorVersion() {
        return DriverVersion.MINOR;
    }

    /** Not compliant: Shepherd offers no stored procedures, escapes or updatable results. */
    @Override
    public boolean jdbcCompliant() {
        return false;
    }

    @Override
    public Logger getParentLogger() throws SQLFeatureNotSupportedException {
        throw new SQLFeatureNotSupportedException("Driver.getParentLogger is not supported by Shepherd (it logs through SLF4J)");
    }
}
