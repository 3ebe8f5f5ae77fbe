package org.shepherd.coordinator.cbs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.shepherd.coordinator.ExecOptions;
import org.shepherd.replica.Outcome;
import org.shepherd.replica.jdbc.ConnectionPreparer;
import org.shepherd.replica.jdbc.ReplicaPool;
import org.shepherd.replica.jdbc.ReplicaSpec;

/** How a replica's worker threads take the requests the core hands them (embedded Derby). */
class JdbcReplicaEndpointTest {

    private static final AtomicInteger DB = new AtomicInteger();
    private static final long WAIT_SECONDS = 30;

    private ReplicaPool pool;
    private JdbcReplicaEndpoint endpoint;
    private SpillSpace spill;

    private JdbcReplicaEndpoint start(int workers) throws Exception {
        ReplicaSpec spec = ReplicaSpec.of("r1", "jdbc:derby:memory:endpoint" + DB.incrementAndGet() + ";create=true", "", "");
        pool = new ReplicaPool(spec, ConnectionPreparer.defaults("derby"), 4, 5000);
        spill = SpillSpace.temporary(1 << 20);
        endpoint = new JdbcReplicaEndpoint(pool, workers, 100, spill, 1 << 20);
        endpoint.createTxlogIfMissing();
        return endpoint;
    }

    @AfterEach
    void stop() {
        if (endpoint != null) endpoint.close();
        if (pool != null) pool.close();
        if (spill != null) spill.close();
    }

    private static JdbcStatement values(int n) {
        return new JdbcStatement("VALUES " + n, List.of(), ExecOptions.DEFAULT);
    }

    @Test
    void aRequestHandedOverFromAnOutcomeRunsOnTheWorkerThatProducedItAndOthersOnOtherWorkers() throws Exception {
        JdbcReplicaEndpoint e = start(4);
        Map<String, String> threadOf = new ConcurrentHashMap<>();
        Map<String, Outcome> outcomes = new ConcurrentHashMap<>();
        CountDownLatch done = new CountDownLatch(3);
        e.execute(1, 1, values(1), false, false, first -> {
            threadOf.put("T1 first", Thread.currentThread().getName());
            outcomes.put("T1 first", first);
            // what the core does on an outcome: send the transaction's next statement, and another transaction's
            e.execute(1, 1, values(2), false, false, next -> {
                threadOf.put("T1 next", Thread.currentThread().getName());
                outcomes.put("T1 next", next);
                done.countDown();
            });
            e.execute(2, 1, values(3), false, false, other -> {
                threadOf.put("T2", Thread.currentThread().getName());
                outcomes.put("T2", other);
                done.countDown();
            });
            done.countDown();
        });
        assertTrue(done.await(WAIT_SECONDS, TimeUnit.SECONDS), "requests did not finish: " + threadOf);
        for (Map.Entry<String, Outcome> o : outcomes.entrySet()) {
            Outcome answer = o.getValue();
            assertTrue(answer.kind() == Outcome.Kind.ANSWER && answer.error() == null, o.getKey() + ": " + answer);
        }
        assertEquals(threadOf.get("T1 first"), threadOf.get("T1 next"), "the follow-up request changed threads");
        assertNotEquals(threadOf.get("T1 first"), threadOf.get("T2"), "a second request waited for the first worker");
        assertTrue(threadOf.get("T1 first").startsWith("replica-r1-"), threadOf.toString());
    }

    @Test
    void aCommitSentFromTheLastStatementsOutcomeCommitsOnTheSameWorker() throws Exception {
        JdbcReplicaEndpoint e = start(2);
        Map<String, String> threadOf = new ConcurrentHashMap<>();
        Map<String, Outcome> outcomes = new ConcurrentHashMap<>();
        CountDownLatch done = new CountDownLatch(1);
        e.execute(7, 1, values(1), false, false, last -> {
            threadOf.put("statement", Thread.currentThread().getName());
            e.commit(7, 1, 7, committed -> {
                threadOf.put("commit", Thread.currentThread().getName());
                outcomes.put("commit", committed);
                done.countDown();
            });
        });
        assertTrue(done.await(WAIT_SECONDS, TimeUnit.SECONDS), "commit did not finish: " + threadOf);
        Outcome commit = outcomes.get("commit");
        assertTrue(commit.kind() == Outcome.Kind.ANSWER && commit.error() == null, String.valueOf(commit));
        assertEquals(threadOf.get("statement"), threadOf.get("commit"));
    }
}
