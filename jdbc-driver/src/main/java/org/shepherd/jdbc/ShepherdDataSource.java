package org.shepherd.jdbc;

import java.io.PrintWriter;
import java.io.Serializable;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.util.Properties;
import java.util.logging.Logger;
import javax.sql.DataSource;
import org.shepherd.protocol.v1.Protocol;

/**
 * A {@link DataSource} for the Shepherd driver: either {@link #setUrl(String)} or server name, port and database,
 * plus user, password and any {@link DriverProperty} through {@link #setProperty(String, String)}.
 * No pooling of its own: put HikariCP (or any pool) in front of it.
 */
public class ShepherdDataSource implements DataSource, Serializable {

    private static final long serialVersionUID = 1L;

    private String url;
    private String serverName = "127.0.0.1";
    private int portNumber = Protocol.DEFAULT_PORT;
    private String databaseName;
    private String user;
    private String password;
    private final Properties properties = new Properties();
    private transient PrintWriter logWriter;

    public String getUrl() {
        return url != null ? url : buildUrl();
    }

    /** A full {@code jdbc:shepherd://...} URL; takes precedence over server name, port and database. */
    public void setUrl(String url) {
        this.url = url;
    }

    public String getServerName() {
        return serverName;
    }

    public void setServerName(String serverName) {
        this.serverName = serverName;
    }

    public int getPortNumber() {
        return portNumber;
    }

    public void setPortNumber(int portNumber) {
        this.portNumber = portNumber;
    }

    public String getDatabaseName() {
        return databaseName;
    }

    public void setDatabaseName(String databaseName) {
        this.databaseName = databaseName;
    }

    public String getUser() {
        return user;
    }

    public void setUser(String user) {
        this.user = user;
    }

    public void setPassword(String password) {
        this.password = password;
    }

    /** Sets any driver property by its name (see {@link DriverProperty}); unknown names are rejected. */
    public void setProperty(String name, String value) {
        if (DriverProperty.forName(name) == null) {
            throw new IllegalArgumentException("unknown Shepherd driver property '" + name + "'");
        }
        properties.setProperty(name, value);
    }

    public String getProperty(String name) {
        return properties.getProperty(name);
    }

    // setters by property name, for pools that configure data sources by reflection (e.g. HikariCP's dataSource.*)

    public void setSsl(boolean value) {
        setProperty("ssl", Boolean.toString(value));
    }

    public void setSslTrustStore(String value) {
        setProperty("sslTrustStore", value);
    }

    public void setSslTrustStorePassword(String value) {
        setProperty("sslTrustStorePassword", value);
    }

    public void setSslHostnameVerification(boolean value) {
        setProperty("sslHostnameVerification", Boolean.toString(value));
    }

    public void setFetchSize(int value) {
        setProperty("fetchSize", Integer.toString(value));
    }

    public void setMaxFrameBytes(int value) {
        setProperty("maxFrameBytes", Integer.toString(value));
    }

    public void setConnectTimeout(int value) {
        setProperty("connectTimeout", Integer.toString(value));
    }

    public void setSocketTimeout(int value) {
        setProperty("socketTimeout", Integer.toString(value));
    }

    public void setApplicationName(String value) {
        setProperty("applicationName", value);
    }

    private String buildUrl() {
        String host = serverName.contains(":") && !serverName.startsWith("[") ? "[" + serverName + "]" : serverName;
        String db = databaseName == null ? "" : URLEncoder.encode(databaseName, StandardCharsets.UTF_8);
        return ShepherdUrl.PREFIX + host + ":" + portNumber + "/" + db;
    }

    @Override
    public Connection getConnection() throws SQLException {
        return getConnection(user, password);
    }

    @Override
    public Connection getConnection(String username, String pass) throws SQLException {
        Properties info = new Properties();
        info.putAll(properties);
        if (username != null) info.setProperty(DriverProperty.USER.propertyName(), username);
        if (pass != null) info.setProperty(DriverProperty.PASSWORD.propertyName(), pass);
        String u = getUrl();
        return ShepherdConnection.open(ShepherdUrl.parse(u, info), u);
    }

    @Override
    public PrintWriter getLogWriter() {
        return logWriter;
    }

    /** Kept for the interface; the driver logs through SLF4J, not through this writer. */
    @Override
    public void setLogWriter(PrintWriter out) {
        this.logWriter = out;
    }

    @Override
    public void setLoginTimeout(int seconds) {
        properties.setProperty(DriverProperty.LOGIN_TIMEOUT.propertyName(), Integer.toString(seconds));
    }

    @Override
    public int getLoginTimeout() {
        String v = properties.getProperty(DriverProperty.LOGIN_TIMEOUT.propertyName());
        return v == null ? 0 : Integer.parseInt(v);
    }

    @Override
    public Logger getParentLogger() throws SQLFeatureNotSupportedException {
        throw new SQLFeatureNotSupportedException("DataSource.getParentLogger is not supported by Shepherd (it logs through"
                + " SLF4J)");
    }

    @Override
    public <T> T unwrap(Class<T> iface) throws SQLException {
        if (iface.isInstance(this)) return iface.cast(this);
        throw new SQLException("not a wrapper for " + iface.getName(), "22023");
    }

    @Override
    public boolean isWrapperFor(Class<?> iface) {
        return iface.isInstance(this);
    }
}
