package org.shepherd.testkit;

import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/** Builds the command line of a server that runs in a JVM of its own, on jars found on this JVM's class path. */
final class JavaProcess {
    private static final String HEAP_MAX = "-Xmx256m";
    /** Extra JVM options for every server JVM, split at whitespace, e.g. a profiler agent ({@code %p} in a file name: the pid). */
    static final String EXTRA_OPTIONS_ENV = "SHEPHERD_SERVER_JAVA_OPTS";

    private JavaProcess() {
    }

    static Path javaExecutable() {
        return Path.of(System.getProperty("java.home"), "bin", "java");
    }

    /**
     * The jar (or class directory) holding each class, looked up as a resource so nothing is loaded; this works
     * whatever the launcher (Surefire's manifest-only jar hides java.class.path).
     */
    static String classPathOf(String... classNames) {
        Set<String> entries = new LinkedHashSet<>();
        for (String className : classNames) {
            String resource = className.replace('.', '/') + ".class";
            URL url = JavaProcess.class.getClassLoader().getResource(resource);
            if (url == null) {
                throw new IllegalStateException(className + " is not on the class path of this JVM");
            }
            entries.add(locationOf(url, resource));
        }
        return String.join(java.io.File.pathSeparator, entries);
    }

    private static String locationOf(URL url, String resource) {
        try {
            String text = url.toString();
            if (text.startsWith("jar:")) {
                String jar = text.substring("jar:".length(), text.indexOf("!/"));
                return Path.of(new java.net.URI(jar)).toString();
            }
            Path file = Path.of(url.toURI());
            Path root = file;
            for (int i = 0; i < resource.split("/").length; i++) {
                root = root.getParent();
            }
            return root.toString();
        } catch (URISyntaxException e) {
            throw new IllegalStateException("cannot locate " + url, e);
        }
    }

    static List<String> command(String classPath, List<String> systemProperties, String mainClass, String... args) {
        List<String> command = new ArrayList<>();
        command.add(javaExecutable().toString());
        command.add(HEAP_MAX);
        command.add("-XX:+UseSerialGC");
        command.add("-XX:TieredStopAtLevel=1");
        String extra = System.getenv(EXTRA_OPTIONS_ENV);
        if (extra != null && !extra.isBlank()) command.addAll(List.of(extra.trim().split("\\s+")));
        command.add("-cp");
        command.add(classPath);
        command.addAll(systemProperties);
        command.add(mainClass);
        command.addAll(List.of(args));
        return command;
    }
}
