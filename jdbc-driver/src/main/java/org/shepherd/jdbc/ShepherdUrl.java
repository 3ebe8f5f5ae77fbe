package org.shepherd.jdbc;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.sql.SQLException;
import java.util.Properties;
import org.shepherd.protocol.v1.Protocol;

/**
 * A parsed {@code jdbc:shepherd://host[:port]/database[?key=value&...]} URL. Parameter values are
 * percent-decoded. Parameters in the URL override the {@code info} properties passed to
 * {@link java.sql.Driver#connect} (as in pgjdbc); an unknown URL parameter is an error, so that a typo does not
 * go unnoticed.
 *
 * @param properties the merged properties (info, then URL parameters)
 */
public record ShepherdUrl(String host, int port, String database, Properties properties) {

    public static final String PREFIX = "jdbc:shepherd://";

    public static boolean accepts(String url) {
        return url != null && url.startsWith(PREFIX);
    }

    public static ShepherdUrl parse(String url, Properties info) throws SQLException {
        if (!accepts(url)) throw invalid(url, "it must start with " + PREFIX);
        Properties props = new Properties();
        if (info != null) {
            for (String name : info.stringPropertyNames()) props.setProperty(name, info.getProperty(name));
        }
        String rest = url.substring(PREFIX.length());
        int q = rest.indexOf('?');
        String query = q < 0 ? "" : rest.substring(q + 1);
        String hostPortDb = q < 0 ? rest : rest.substring(0, q);
        int slash = hostPortDb.indexOf('/', hostPortDb.startsWith("[") ? hostPortDb.indexOf(']') : 0);
        if (slash < 0) throw invalid(url, "the database is missing (host/database)");
        String hostPort = hostPortDb.substring(0, slash);
        String database = decode(url, hostPortDb.substring(slash + 1));
        if (database.isEmpty() || database.contains("/")) throw invalid(url, "the database name is missing or contains '/'");

        String host;
        int port = Protocol.DEFAULT_PORT;
        String portText = null;
        if (hostPort.startsWith("[")) {
            int close = hostPort.indexOf(']');
            if (close < 0) throw invalid(url, "unterminated IPv6 address");
            host = hostPort.substring(1, close);
            String after = hostPort.substring(close + 1);
            if (after.startsWith(":")) {
                portText = after.substring(1);
            } else if (!after.isEmpty()) {
                throw invalid(url, "unexpected text after the IPv6 address");
            }
        } else {
            int colon = hostPort.lastIndexOf(':');
            host = colon < 0 ? hostPort : hostPort.substring(0, colon);
            if (colon >= 0) portText = hostPort.substring(colon + 1);
        }
        if (host.isEmpty()) throw invalid(url, "the host is missing");
        if (portText != null) {
            try {
                port = Integer.parseInt(portText);
            } catch (NumberFormatException e) {
                port = -1;
            }
            if (port < 1 || port > 65535) throw invalid(url, "the port must be 1..65535, got '" + portText + "'");
        }

        if (!query.isEmpty()) {
            for (String pair : query.split("&")) {
                if (pair.isEmpty()) continue;
                int eq = pair.indexOf('=');
                String key = decode(url, eq < 0 ? pair : pair.substring(0, eq));
                String value = eq < 0 ? "" : decode(url, pair.substring(eq + 1));
                if (DriverProperty.forName(key) == null) {
                    throw invalid(url, "unknown parameter '" + key + "' (known: " + knownNames() + ")");
                }
                props.setProperty(key, value);
            }
        }
        return new ShepherdUrl(host, port, database, props);
    }

    private static String knownNames() {
        StringBuilder sb = new StringBuilder();
        for (DriverProperty p : DriverProperty.values()) {
            if (sb.length() > 0) sb.append(", ");
            sb.append(p.propertyName());
        }
        return sb.toString();
    }

    private static String decode(String url, String s) throws SQLException {
        try {
            return URLDecoder.decode(s.replace("+", "%2B"), StandardCharsets.UTF_8);
        } catch (IllegalArgumentException e) {
            throw invalid(url, "bad percent-encoding in '" + s + "'");
        }
    }

    private static SQLException invalid(String url, String why) {
        return new SQLException("invalid Shepherd URL '" + redact(url) + "': " + why
                + " (expected jdbc:shepherd://host[:port]/database[?user=..&password=..])", "08001");
    }

    /** The URL with any password parameter value hidden, for messages and logs. */
    public static String redact(String url) {
        return url == null ? null : url.replaceAll("(?i)(password=)[^&]*", "$1***");
    }
}
