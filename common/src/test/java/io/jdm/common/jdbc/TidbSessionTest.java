package io.jdm.common.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Map;
import org.junit.jupiter.api.Test;

/** The session a TiDB target gets, decided from the version string alone. */
class TidbSessionTest {

    @Test
    void tidbGetsOptimisticTransactionsAndExplicitAutoRandom() {
        assertEquals(Map.of("tidb_txn_mode", "optimistic", "allow_auto_random_explicit_insert", "1"),
                TidbSession.defaults("8.0.11-TiDB-v7.5.1", Map.of()));
        assertEquals(Map.of("tidb_txn_mode", "optimistic", "allow_auto_random_explicit_insert", "1"),
                TidbSession.defaults("5.7.25-TiDB-v4.0.3", Map.of()));
    }

    @Test
    void olderTidbGetsOnlyWhatItKnows() {
        assertEquals(Map.of("tidb_txn_mode", "optimistic"), TidbSession.defaults("5.7.25-TiDB-v4.0.2", Map.of()));
        assertEquals(Map.of(), TidbSession.defaults("5.7.25-TiDB-v2.1.19", Map.of()));
    }

    @Test
    void whatTheTaskConfiguresIsKept() {
        assertEquals(Map.of("allow_auto_random_explicit_insert", "1"),
                TidbSession.defaults("8.0.11-TiDB-v7.5.1", Map.of("TiDB_Txn_Mode", "pessimistic")));
    }

    @Test
    void otherServersGetNothing() {
        assertEquals(Map.of(), TidbSession.defaults("11.4.5-MariaDB-log", Map.of()));
        assertEquals(Map.of(), TidbSession.defaults("8.0.36", Map.of()));
        assertEquals(Map.of(), TidbSession.defaults("8.4.2", Map.of()));
    }
}
