package io.jdm.cli;

import io.jdm.common.config.ConfigException;
import java.io.PrintWriter;

/** Prints task-file problems: one line each, no stack trace. */
final class ConfigErrors {
    private ConfigErrors() {
    }

    static boolean isConfigError(Exception e) {
        return e instanceof ConfigException;
    }

    static void print(Exception e, PrintWriter err) {
        ConfigException c = (ConfigException) e;
        err.println("jdm: the task file has " + c.problems().size() + (c.problems().size() == 1 ? " problem:" : " problems:"));
        for (String p : c.problems()) {
            err.println("  " + p);
        }
    }
}
