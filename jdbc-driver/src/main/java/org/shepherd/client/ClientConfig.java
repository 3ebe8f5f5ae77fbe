package org.shepherd.client;

/**
 * Everything the protocol client needs to open a session. Timeouts in milliseconds, 0 = no limit.
 *
 * @param loginTimeoutMs bounds the whole opening: TCP connect, TLS handshake, authentication
 * @param trustStorePath null: the JVM's default trust store
 */
public record ClientConfig(
        String host,
        int port,
        String database,
        String user,
        String password,
        int loginTimeoutMs,
        int connectTimeoutMs,
        int socketTimeoutMs,
        int maxFrameBytes,
        boolean ssl,
        String trustStorePath,
        String trustStorePassword,
        boolean hostnameVerification,
        String applicationName) {

    public ClientConfig {
        if (host == null || host.isEmpty()) throw new IllegalArgumentException("host is required");
        if (port < 1 || port > 65535) throw new IllegalArgumentException("port out of range: " + port);
        if (loginTimeoutMs < 0 || connectTimeoutMs < 0 || socketTimeoutMs < 0) {
            throw new IllegalArgumentException("timeouts must be >= 0");
        }
        if (maxFrameBytes < 1024) throw new IllegalArgumentException("maxFrameBytes must be >= 1024");
        if (user == null) user = "";
        if (password == null) password = "";
        if (database == null) database = "";
        if (applicationName == null) applicationName = "";
    }

    @Override
    public String toString() {
        return "ClientConfig[" + user + "@" + host + ":" + port + "/" + database + ", ssl=" + ssl + "]";
    }
}
