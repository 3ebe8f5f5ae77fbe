package org.shepherd.config;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;

/** A {@code host:port} pair as written in the configuration ({@code [::1]:7654} for IPv6 literals). */
public record HostPort(String host, int port) {

    public HostPort {
        if (host == null || host.isEmpty()) throw new IllegalArgumentException("host must not be empty");
        if (port < 0 || port > 65535) throw new IllegalArgumentException("port must be between 0 and 65535");
    }

    public static HostPort parse(String value) {
        String v = value.trim();
        int colon = v.lastIndexOf(':');
        if (colon <= 0 || colon == v.length() - 1) {
            throw new IllegalArgumentException("expected host:port, for example 127.0.0.1:7654");
        }
        String host = v.substring(0, colon);
        if (host.startsWith("[") && host.endsWith("]")) host = host.substring(1, host.length() - 1);
        int port;
        try {
            port = Integer.parseInt(v.substring(colon + 1));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("expected host:port with a numeric port, for example 127.0.0.1:7654");
        }
        return new HostPort(host, port);
    }

    /** Resolves the host; port 0 means "any free port". */
    public InetSocketAddress resolve() throws UnknownHostException {
        return new InetSocketAddress(InetAddress.getByName(host), port);
    }

    /** True when every address the host name stands for is a loopback address. */
    public boolean isLoopback() {
        try {
            InetAddress[] all = InetAddress.getAllByName(host);
            for (InetAddress a : all) {
                if (!a.isLoopbackAddress()) return false;
            }
            return all.length > 0;
        } catch (UnknownHostException e) {
            return false;
        }
    }

    @Override
    public String toString() {
        return (host.contains(":") ? "[" + host + "]" : host) + ":" + port;
    }
}
