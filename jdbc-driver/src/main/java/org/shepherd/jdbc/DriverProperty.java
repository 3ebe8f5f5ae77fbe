package org.shepherd.jdbc;

import java.sql.DriverPropertyInfo;
import java.sql.SQLException;
import java.util.Locale;
import java.util.Properties;
import org.shepherd.protocol.v1.Protocol;

/**
 * Every connection property of the driver, defined once: name, default, description, whether required.
 * {@link ShepherdDriver#getPropertyInfo}, the README table ({@link #markdownTable()}) and URL validation derive
 * from it. Timeouts are in seconds, as in most JDBC drivers.
 */
public enum DriverProperty {
    USER("user", null, true, "Shepherd user name (one of the server's user.<name>.password entries)."),
    PASSWORD("password", null, false,
            "Password of the user. Never sent over the wire: the driver proves it with SCRAM-SHA-256."),
    LOGIN_TIMEOUT("loginTimeout", "30", false,
            "Seconds to open a connection (TCP connect, TLS handshake, authentication); 0 = no limit."),
    CONNECT_TIMEOUT("connectTimeout", "10", false, "Seconds to establish the TCP connection; 0 = no limit."),
    SOCKET_TIMEOUT("socketTimeout", "0", false,
            "Seconds a read from the shepherd may block after login; 0 = no limit. On expiry the connection is closed."),
    FETCH_SIZE("fetchSize", Integer.toString(Protocol.DEFAULT_FETCH_SIZE), false,
            "Rows per batch streamed from the shepherd when a statement sets no fetch size."),
    MAX_FRAME_BYTES("maxFrameBytes", Integer.toString(Protocol.DEFAULT_MAX_FRAME_BYTES), false,
            "Largest protocol frame the driver accepts or sends, in bytes; the shepherd keeps its frames below it, and a larger"
                    + " request fails with 54000 before it is sent (the connection stays open)."),
    SSL("ssl", "false", false, "Connect with TLS (from the first byte)."),
    SSL_TRUST_STORE("sslTrustStore", null, false,
            "Trust store file (PKCS12 or JKS) holding the shepherd's certificate or its CA; default: the JVM's trust store."),
    SSL_TRUST_STORE_PASSWORD("sslTrustStorePassword", null, false, "Password of sslTrustStore."),
    SSL_HOSTNAME_VERIFICATION("sslHostnameVerification", "true", false,
            "Check that the shepherd's certificate names the host of the URL."),
    APPLICATION_NAME("applicationName", "", false, "Name of the application, shown in the shepherd's logs.");

    private final String propertyName;
    private final String defaultValue;
    private final boolean required;
    private final String description;

    DriverProperty(String propertyName, String defaultValue, boolean required, String description) {
        this.propertyName = propertyName;
        this.defaultValue = defaultValue;
        this.required = required;
        this.description = description;
    }

    public String propertyName() {
        return propertyName;
    }

    /** The default, or null when there is none. */
    public String defaultValue() {
        return defaultValue;
    }

    public boolean required() {
        return required;
    }

    public String description() {
        return description;
    }

    /** The property with this name (case-sensitive, as JDBC property names are), or null. */
    public static DriverProperty forName(String name) {
        for (DriverProperty p : values()) {
            if (p.propertyName.equals(name)) return p;
        }
        return null;
    }

    /** The value in {@code props}, else the default (may be null). */
    public String get(Properties props) {
        String v = props.getProperty(propertyName);
        return v != null ? v : defaultValue;
    }

    public int getInt(Properties props) throws SQLException {
        String v = get(props);
        try {
            int i = Integer.parseInt(v.trim());
            if (i < 0) throw new NumberFormatException();
            return i;
        } catch (NumberFormatException | NullPointerException e) {
            throw new SQLException("property " + propertyName + " must be a non-negative integer, got '" + v + "'", "08001");
        }
    }

    public boolean getBoolean(Properties props) throws SQLException {
        String v = get(props);
        String s = v == null ? "" : v.trim().toLowerCase(Locale.ROOT);
        if (s.equals("true")) return true;
        if (s.equals("false")) return false;
        throw new SQLException("property " + propertyName + " must be true or false, got '" + v + "'", "08001");
    }

    public DriverPropertyInfo toDriverPropertyInfo(Properties props) {
        DriverPropertyInfo info = new DriverPropertyInfo(propertyName, get(props));
        info.required = required;
        info.description = description;
        if (defaultValue != null && (defaultValue.equals("true") || defaultValue.equals("false"))) {
            info.choices = new String[] {"true", "false"};
        }
        return info;
    }

    /** The properties as a markdown table (name, default, required, description), for the README. */
    public static String markdownTable() {
        StringBuilder sb = new StringBuilder("| property | default | required | description |\n|---|---|---|---|\n");
        for (DriverProperty p : values()) {
            sb.append("| `").append(p.propertyName).append("` | ")
                    .append(p.defaultValue == null || p.defaultValue.isEmpty() ? "" : "`" + p.defaultValue + "`")
                    .append(" | ").append(p.required ? "yes" : "no")
                    .append(" | ").append(markdownText(p.description)).append(" |\n");
        }
        return sb.toString();
    }

    /** Table cell text: GitHub would take {@code <name>} for an HTML tag and {@code |} for a cell border. */
    static String markdownText(String text) {
        return text.replace("|", "\\|").replace("<", "&lt;").replace(">", "&gt;");
    }
}
