package org.shepherd.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import org.junit.jupiter.api.Test;

class ReplicaSetTest {
    @Test
    void mixedSetStartsInParallelDescribesItselfAsShepherdConfigAndStopsEverything() throws Exception {
        List<Long> pids = new ArrayList<>();
        try (ReplicaSet set = ReplicaSet.mariaDbDerbyHsqldb()) {
            assertThat(set.servers()).extracting(DatabaseServer::dialect).containsExactly("mariadb", "derby", "hsqldb");
            Properties config = set.shepherdConfig();
            for (DatabaseServer s : set.servers()) {
                assertThat(s.isRunning()).isTrue();
                pids.add(s.pid());
                assertThat(config.getProperty("replica." + s.name() + ".url")).isEqualTo(s.jdbcUrl());
                assertThat(config.getProperty("replica." + s.name() + ".dialect")).isEqualTo(s.dialect());
                try (Connection c = s.connect()) {
                    assertThat(c.isValid(10)).isTrue();
                }
            }
            assertThat(set.get("derby")).isSameAs(set.get(1));
        }
        assertThat(pids).allSatisfy(pid -> assertThat(ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false)).isFalse());
    }
}
