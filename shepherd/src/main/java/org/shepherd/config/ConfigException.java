package org.shepherd.config;

/** The configuration cannot be used; the message says which key is wrong and what to write instead. */
public class ConfigException extends Exception {

    private static final long serialVersionUID = 1L;

    public ConfigException(String message) {
        super(message);
    }

    public ConfigException(String message, Throwable cause) {
        super(message, cause);
    }
}
