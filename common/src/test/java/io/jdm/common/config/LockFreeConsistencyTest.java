package io.jdm.common.config;

import static io.jdm.common.config.Tasks.parse;
import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** {@code lock-free} is spelled with a dash in the task file, in extra-args and in the metadata. */
class LockFreeConsistencyTest {
    private static final String TASK = """
            name: shop
            task-mode: all
            target-database: {host: t, user: u}
            mydumpers:
              global: {consistency: %s}
            mysql-instances:
              - source-id: s1
                from: {host: h1, user: u}
            """;

    @Test
    void theTaskFileKeyAndExtraArgsReadLockFree() {
        TaskConfig key = parse(TASK.formatted("lock-free"));
        assertEquals(Consistency.LOCK_FREE, key.mydumper(key.instance("s1")).consistency());
        TaskConfig arg = parse(TASK.formatted("auto, extra-args: \"--consistency lock-free\""));
        assertEquals(Consistency.LOCK_FREE, arg.mydumper(arg.instance("s1")).consistency());
        assertEquals("lock-free", Consistency.LOCK_FREE.label());
        assertEquals("flush", Consistency.FLUSH.label());
    }
}
