package org.shepherd.coordinator.cbs;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** MySQL's named locks as the shepherd keeps them: held per session, re-entrant, released by name, all, or at the end. */
class NamedLocksTest {

    private final Object a = new Object();
    private final Object b = new Object();

    @Test
    void aLockIsHeldBySessionAndReleasedAsMySqlReleasesIt() throws Exception {
        NamedLocks locks = new NamedLocks();
        assertThat(locks.isFree("Flyway-1")).isEqualTo(1);
        assertThat(locks.get(a, 7, "Flyway-1", 0)).isEqualTo(1);
        assertThat(locks.get(a, 7, "flyway-1", 0)).as("again, by another spelling: re-entrant").isEqualTo(1);
        assertThat(locks.get(b, 8, "Flyway-1", 0)).as("held by a").isZero();
        assertThat(locks.holderOf("FLYWAY-1")).isEqualTo(7L);
        assertThat(locks.release(b, "Flyway-1")).as("not b's").isZero();
        assertThat(locks.release(a, "Flyway-1")).isEqualTo(1L);
        assertThat(locks.isFree("Flyway-1")).as("taken twice: still held").isZero();
        assertThat(locks.release(a, "Flyway-1")).isEqualTo(1L);
        assertThat(locks.release(a, "Flyway-1")).as("nobody holds it").isNull();
        assertThat(locks.holderOf("Flyway-1")).isNull();

        locks.get(a, 7, "x", 0);
        locks.get(a, 7, "y", 0);
        locks.get(a, 7, "y", 0);
        assertThat(locks.releaseAll(a)).isEqualTo(3);
        assertThat(locks.isFree("y")).isEqualTo(1);
    }

    @Test
    void aWaiterGetsTheLockWhenItsHolderEnds() throws Exception {
        NamedLocks locks = new NamedLocks();
        locks.get(a, 1, "m", 0);
        CompletableFuture<Long> waiter = CompletableFuture.supplyAsync(() -> {
            try {
                return locks.get(b, 2, "m", -1);
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
        });
        assertThat(locks.get(new Object(), 3, "m", 0)).as("a holds it").isZero();
        locks.releaseAll(a); // a's session ended
        assertThat(waiter.get(30, TimeUnit.SECONDS)).isEqualTo(1L);
        assertThat(locks.holderOf("m")).isEqualTo(2L);
    }
}
