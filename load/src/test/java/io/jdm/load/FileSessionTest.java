package io.jdm.load;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.lang.reflect.Proxy;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * What {@link FileLoader.Session} sends of each file's session statements: a statement the file
 * before on the connection ran in the same place, after the same ones, is not sent again, where
 * that file ran nothing more; from the first that differs on, every one is; after anything else
 * that changes the session, all of them.
 */
class FileSessionTest {
    private static final String NAMES = "/*!40101 SET NAMES utf8mb4*/";
    private static final String CHECKS = "/*!40014 SET FOREIGN_KEY_CHECKS=0*/";
    private static final String ZONE = "/*!40103 SET TIME_ZONE='+00:00' */";
    private static final String INSERT = "INSERT INTO t VALUES (1)";

    private final List<String> sent = new ArrayList<>();
    private final Statement st = (Statement) Proxy.newProxyInstance(getClass().getClassLoader(),
            new Class<?>[] {Statement.class}, (proxy, method, args) -> {
                if (method.getName().equals("execute")) {
                    sent.add((String) args[0]);
                    return false;
                }
                throw new UnsupportedOperationException(method.getName());
            });
    private final FileLoader.Session session = new FileLoader.Session("STRICT_TRANS_TABLES");

    /** Runs a file's statements as the loaders do; an INSERT stands for its rows, shown where it goes. */
    private List<String> file(String... statements) throws Exception {
        sent.clear();
        session.startFile(st);
        for (String s : statements) {
            if (s.startsWith("INSERT")) {
                session.settle(st);
                sent.add(s);
            } else {
                session.run(st, s);
            }
        }
        session.settle(st);
        return List.copyOf(sent);
    }

    @Test
    void theSameStatementsAsTheFileBeforeAreSentOnce() throws Exception {
        assertEquals(List.of(NAMES, CHECKS), file(NAMES, CHECKS));
        assertEquals(List.of(), file(NAMES, CHECKS), "the same two again");
        assertEquals(List.of(ZONE), file(NAMES, CHECKS, ZONE), "one more after them");
        assertEquals(List.of(), file(NAMES, CHECKS, ZONE));
        assertEquals(List.of(INSERT), file(NAMES, CHECKS, ZONE, INSERT));
        assertEquals(List.of(INSERT), file(NAMES, CHECKS, ZONE, INSERT));
        assertEquals(List.of(NAMES), file(NAMES), "a first part of them: the file before set more after it");
    }

    /**
     * A file that sets something back after its rows (as mysqldump's files do) left the session
     * otherwise than its first statements did: the next file's same first statements run again,
     * before its rows.
     */
    @Test
    void statementsTheFileBeforeRanMoreAfterRunAgainBeforeTheRows() throws Exception {
        String save = "SET @saved = @@character_set_client";
        String latin1 = "SET character_set_client = latin1";
        String restore = "SET character_set_client = @saved";
        assertEquals(List.of(save, latin1, INSERT, restore), file(save, latin1, INSERT, restore));
        assertEquals(List.of(save, latin1, INSERT, restore), file(save, latin1, INSERT, restore));
        assertEquals(List.of(save, latin1, INSERT), file(save, latin1, INSERT), "what the file before set back");
        assertEquals(List.of(INSERT), file(save, latin1, INSERT), "the file before ran nothing after them");
    }

    @Test
    void fromTheFirstThatDiffersOnEveryOneIsSent() throws Exception {
        file(NAMES, CHECKS, ZONE);
        assertEquals(List.of("SET NAMES binary", CHECKS, ZONE), file("SET NAMES binary", CHECKS, ZONE),
                "the same statements after another SET NAMES run again, in order");
        assertEquals(List.of(NAMES, CHECKS), file(NAMES, CHECKS));
        assertEquals(List.of(NAMES, ZONE, CHECKS), file(NAMES, ZONE, CHECKS),
                "the order counts; the file before set more after NAMES, so it runs again too");
    }

    @Test
    void afterSomethingElseChangedTheSessionAllAreSentAgain() throws Exception {
        file(NAMES, CHECKS);
        session.forget();
        assertEquals(List.of(NAMES, CHECKS), file(NAMES, CHECKS));
    }

    @Test
    void aFileThatSetsSqlModeHasTheLoadsModeBackAndItsStatementsRunAgainNextTime() throws Exception {
        String mode = "SET SESSION sql_mode = 'ANSI_QUOTES'";
        assertEquals(List.of(NAMES, mode), file(NAMES, mode));
        assertEquals(List.of("SET SESSION sql_mode = 'STRICT_TRANS_TABLES'", NAMES, mode), file(NAMES, mode));
    }

    @Test
    void aSetNamesTheConnectionRanLastIsNotSentAgain() throws Exception {
        file(NAMES);
        session.forget();
        session.names = NAMES; // as after a statement that only sets the names
        assertEquals(List.of(CHECKS), file(NAMES, CHECKS));
    }
}
