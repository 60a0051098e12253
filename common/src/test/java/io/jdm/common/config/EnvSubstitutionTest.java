package io.jdm.common.config;

import static io.jdm.common.config.Tasks.MINIMAL;
import static io.jdm.common.config.Tasks.inTarget;
import static io.jdm.common.config.Tasks.parse;
import static io.jdm.common.config.Tasks.problems;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class EnvSubstitutionTest {
    private static final String SECRET = "s3cr3t-Pa55";

    @Test
    void substitutesBeforeTypesSoPortsCanComeFromTheEnvironment() {
        TaskConfig t = parse(inTarget("  port: ${TPORT}\n  password: \"${TPASS}\"\n"),
                Map.of("TPORT", "4000", "TPASS", SECRET));
        assertEquals(4000, t.targetDatabase().port());
        assertEquals(SECRET, t.targetDatabase().password().reveal());
    }

    @Test
    void defaultIsUsedWhenTheVariableIsUnsetOrEmpty() {
        String yaml = inTarget("  port: ${TPORT:-4000}\n");
        assertEquals(4000, parse(yaml, Map.of()).targetDatabase().port());
        assertEquals(4000, parse(yaml, Map.of("TPORT", "")).targetDatabase().port());
        assertEquals(4001, parse(yaml, Map.of("TPORT", "4001")).targetDatabase().port());
        assertEquals("", parse(inTarget("  password: ${P:-}\n"), Map.of()).targetDatabase().password().reveal());
    }

    @Test
    void substitutesInsideLongerTextAndInListsAndNestedMaps() {
        TaskConfig t = parse(MINIMAL.replace("  host: 127.0.0.1\n  user: root\n",
                        "  host: db-${ENV}.internal\n  user: root\n  session:\n    time_zone: ${TZ}\n")
                + "block-allow-list:\n  bw:\n    do-dbs: [\"${DB}\", other]\n", Map.of("ENV", "prod", "TZ", "+00:00",
                "DB", "shop"));
        assertEquals("db-prod.internal", t.targetDatabase().host());
        assertEquals(Map.of("time_zone", "+00:00"), t.targetDatabase().session());
        assertEquals(List.of("shop", "other"), t.blockAllowList().get("bw").doDbs());
    }

    @Test
    void unsetVariableWithoutDefaultIsAProblemNamingTheVariable() {
        assertEquals(List.of("target-database.password: environment variable DB_PASS is not set"),
                problems(inTarget("  password: ${DB_PASS}\n")));
    }

    @Test
    void doubleDollarWritesALiteralReference() {
        TaskConfig t = parse(inTarget("  password: \"a$${B}c\"\n"));
        assertEquals("a${B}c", t.targetDatabase().password().reveal());
    }

    @Test
    void keysAndCommentsAreNotSubstituted() {
        TaskConfig t = parse("# uses ${NOT_SET} in a comment\n" + MINIMAL);
        assertEquals("t1", t.name());
    }

    @Test
    void aSubstitutedValueNeverAppearsInAMessage() {
        List<String> p = problems(inTarget("  port: ${TPORT}\n"), Map.of("TPORT", SECRET));
        assertEquals(List.of("target-database.port: must be an integer, got \"${TPORT}\" "
                + "(value from the environment not shown)"), p);
    }

    @Test
    void thePasswordNeverAppearsInToStringMessagesOrStackTraces() {
        Map<String, String> env = Map.of("DB_PASS", SECRET, "PORT", SECRET);
        TaskConfig ok = parse(inTarget("  password: ${DB_PASS}\n"), env);
        assertFalse(ok.toString().contains(SECRET), ok.toString());
        assertFalse(ok.targetDatabase().toString().contains(SECRET));

        String broken = inTarget("  password: ${DB_PASS}\n  port: ${PORT}\n  pasword: " + SECRET + "\n")
                .replace("user: root", "user: [root]") + "syncers:\n  global:\n    batch: ${PORT}\n";
        ConfigException e = assertThrows(ConfigException.class, () -> parse(broken, env));
        StringWriter trace = new StringWriter();
        e.printStackTrace(new PrintWriter(trace));
        assertFalse(trace.toString().contains(SECRET), trace.toString());
        assertEquals(5, e.problems().size(), e.getMessage());
    }

    @Test
    void aLiteralPasswordOfTheWrongTypeIsNotPrinted() {
        List<String> p = problems(inTarget("  password: [" + SECRET + "]\n"));
        assertEquals(List.of("target-database.password: must be a string"), p);
    }

    @Test
    void passwordsKeepTheirTextEvenWhenYamlWouldReadANumber() {
        assertEquals("0123", parse(inTarget("  password: 0123\n")).targetDatabase().password().reveal());
        assertEquals("1.50", parse(inTarget("  password: 1.50\n")).targetDatabase().password().reveal());
    }
}
