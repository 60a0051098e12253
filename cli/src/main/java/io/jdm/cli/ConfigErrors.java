package io.jdm.cli;

import java.io.PrintWriter;

/** Prints task-file problems: one line each, no stack trace. */
final class ConfigErrors {
    private ConfigErrors() {
    }

    static boolean isConfigError(Exception e) {
        return false;
    }

    static void print(Exception e, PrintWriter err) {
        err.println("jdm: " + e.getMessage());
    }
}
