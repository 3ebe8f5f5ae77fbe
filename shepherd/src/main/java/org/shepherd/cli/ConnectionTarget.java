package org.shepherd.cli;

import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Properties;

/** Where {@code shepherd sql} connects: a JDBC URL and optional credentials. */
record ConnectionTarget(String url, String user, String password) {

    static final String CREDENTIALS_FILE = "credentials.properties";

    /**
     * The target from the command line, or, without a URL, from the credentials file that {@code shepherd serve}
     * writes into its data directory when it runs the embedded default.
     */
    static ConnectionTarget resolve(String url, String user, String password, Path dataDir) {
        if (url != null) {
            return new ConnectionTarget(url, user, password);
        }
        Path file = dataDir.resolve(CREDENTIALS_FILE);
        if (!Files.isRegularFile(file)) {
            throw CliException.usage("no --url given and " + file + " does not exist: start `bin/shepherd serve` in this "
                    + "directory first, run from the directory where it runs, or pass --url jdbc:...");
        }
        Properties properties = new Properties();
        try (Reader reader = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            properties.load(reader);
        } catch (IOException e) {
            throw CliException.usage("cannot read " + file + ": " + e.getMessage());
        }
        String fileUrl = properties.getProperty("url");
        if (fileUrl == null || fileUrl.isBlank()) {
            throw CliException.usage(file + " has no `url` property; delete it and restart `bin/shepherd serve`, or pass --url");
        }
        return new ConnectionTarget(fileUrl.strip(),
                user != null ? user : properties.getProperty("user"),
                password != null ? password : properties.getProperty("password"));
    }

    Properties connectionProperties() {
        Properties properties = new Properties();
        if (user != null) {
            properties.setProperty("user", user);
        }
        if (password != null) {
            properties.setProperty("password", password);
        }
        return properties;
    }
}
