package io.jdm.cli;

/** The exit codes every subcommand uses. */
final class ExitCode {
    static final int OK = 0;
    /** A check failed, verify found a difference, or a unit stopped on an error. */
    static final int FAILED = 1;
    /** Bad usage, a bad task file, or a command that is not available. */
    static final int USAGE = 2;
    /** verify only: the comparison could not be done (a server, table or hold error). */
    static final int VERIFY_ERROR = 2;

    private ExitCode() {
    }
}
