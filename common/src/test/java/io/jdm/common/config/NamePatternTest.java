package io.jdm.common.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class NamePatternTest {
    @ParameterizedTest(name = "{0} ~ {1} = {2}")
    @CsvSource({
            "shop,      shop,     true",
            "shop,      shop1,    false",
            "shop*,     shop,     true",
            "shop*,     shop_01,  true",
            "shop*,     sho,      false",
            "*_log,     app_log,  true",
            "t?,        t1,       true",
            "t?,        t12,      false",
            "t[1-3],    t2,       true",
            "t[1-3],    t4,       false",
            "t[!1-3],   t4,       true",
            "t[!1-3],   t2,       false",
            "t[abc],    tb,       true",
            "t[abc],    td,       false",
            "t[!],      t!,       true",
            "a.b,       a.b,      true",
            "a.b,       axb,      false",
            "a+b,       a+b,      true",
            "t[,        t[,       true",
            "t[],       t[],      true",
            "订单*,       订单_2024,  true",
            "'~^test.*', test1,   true",
            "'~^test.*', mytest,  false",
            "~test,     mytest1,  true",
            "'~^t\\d+$', t12,     true",
            "'~^t\\d+$', t12a,    false",
    })
    void matches(String pattern, String name, boolean expected) {
        assertEquals(expected, NamePattern.compile(pattern, true).matches(name));
    }

    @Test
    void caseInsensitiveUnlessAskedOtherwise() {
        assertTrue(NamePattern.compile("Shop*", false).matches("SHOP_1"));
        assertFalse(NamePattern.compile("Shop*", true).matches("SHOP_1"));
        assertTrue(NamePattern.compile("~^ORD", false).matches("orders"));
        assertFalse(NamePattern.compile("~^ORD", true).matches("orders"));
        assertTrue(NamePattern.compile("t[A-C]", false).matches("tb"));
    }

    @Test
    void rejectsEmptyAndBrokenRegex() {
        assertThrows(IllegalArgumentException.class, () -> NamePattern.compile("", true));
        assertThrows(IllegalArgumentException.class, () -> NamePattern.compile("~", true));
        var e = assertThrows(IllegalArgumentException.class, () -> NamePattern.compile("~^(a", true));
        assertEquals("Unclosed group", e.getMessage());
    }
}
