package org.shepherd.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** Test servers listen below the kernel's ephemeral range, where no outgoing connection can take their port first. */
class FreePortTest {

    @Test
    void aChosenPortIsFreeAndBelowTheEphemeralRange() throws Exception {
        int ephemeralLow;
        try (java.io.BufferedReader r = Files.newBufferedReader(Path.of("/proc/sys/net/ipv4/ip_local_port_range"))) {
            ephemeralLow = Integer.parseInt(r.readLine().trim().split("\\s+")[0]);
        }
        for (int i = 0; i < 20; i++) {
            int port = DatabaseServer.freePort();
            assertThat(port).isBetween(DatabaseServer.PORT_LOW, ephemeralLow - 1);
            try (ServerSocket s = new ServerSocket(port, 1, InetAddress.getByName(DatabaseServer.LOOPBACK))) {
                assertThat(s.getLocalPort()).isEqualTo(port);
            }
        }
    }
}
