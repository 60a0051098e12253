package io.jdm.cli;

import ch.qos.logback.classic.Level;
import io.jdm.common.error.ErrorClassifier;
import io.jdm.common.error.JdmException;
import io.jdm.common.jdbc.DataSources;
import java.io.PrintWriter;
import java.util.List;
import org.slf4j.LoggerFactory;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** Entry point of the {@code jdm} command. */
@Command(name = "jdm", mixinStandardHelpOptions = true, versionProvider = Jdm.Version.class,
        description = "Migrate a live MySQL/MariaDB database into TiDB or any MySQL-compatible target: "
                + "dump, load, binlog sync.")
public final class Jdm implements Runnable {
    /** The subcommands, in the order the usage lists them. */
    private static final List<Class<?>> COMMANDS = List.of(CheckCommand.class, DumpCommand.class, LoadCommand.class,
            SyncCommand.class, RunCommand.class, StatusCommand.class, OperateTaskCommand.Pause.class,
            OperateTaskCommand.Resume.class, OperateTaskCommand.Stop.class, ShardLockCommand.class, BinlogCommand.class, HandleErrorCommand.class,
            ValidationCommand.class,
            VerifyCommand.class, BenchCommand.class, DemoCommand.class);

    @Option(names = "--verbose", scope = CommandLine.ScopeType.INHERIT,
            description = "Debug logging and stack traces on errors.")
    void setVerbose(boolean v) {
        verbose = v;
        if (v) {
            ((ch.qos.logback.classic.Logger) LoggerFactory.getLogger("io.jdm")).setLevel(Level.DEBUG);
        }
    }

    static boolean verbose;

    @Option(names = "--log-json", scope = CommandLine.ScopeType.INHERIT,
            description = "Write log lines as JSON objects (one per line) for log collectors.")
    void setLogJson(boolean json) {
        if (json) {
            LogFormat.useJson();
        }
    }

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(spec.commandLine().getOut());
    }

    /** The binlog client logs through java.util.logging; keep it to warnings (strong ref: JUL holds weak ones). */
    private static final java.util.logging.Logger BINLOG_CLIENT_LOG =
            java.util.logging.Logger.getLogger("com.github.shyiko.mysql.binlog");

    public static void main(String[] args) {
        DataSources.warmUp(); // beside the parsing of the command line and the task file
        BINLOG_CLIENT_LOG.setLevel(java.util.logging.Level.WARNING);
        System.exit(execute(args));
    }

    /** Runs the command line and returns the exit code (for tests and {@link #main}). */
    public static int execute(String... args) {
        verbose = false;
        CommandLine cl = commandLine(args);
        cl.setExecutionExceptionHandler(Jdm::handle);
        cl.setParameterExceptionHandler((ex, a) -> {
            PrintWriter err = ex.getCommandLine().getErr();
            err.println("jdm: " + ex.getMessage());
            err.println("Try '" + ex.getCommandLine().getCommandSpec().qualifiedName() + " --help'.");
            return ExitCode.USAGE;
        });
        return cl.execute(args);
    }

    /**
     * The command line for {@code args}: only the command they name is built (picocli reads each
     * command's options by reflection, and all of them cost about 0.1 s of every start); all of them
     * for the usage or a name not known.
     */
    static CommandLine commandLine(String... args) {
        CommandLine cl = new CommandLine(new Jdm());
        Class<?> named = named(args);
        for (Class<?> c : named == null ? COMMANDS : List.of(named)) {
            cl.addSubcommand(c);
        }
        return cl;
    }

    /** The command the first argument that is not an option names (or one of its aliases); null if none. */
    private static Class<?> named(String[] args) {
        for (String a : args) {
            if (a.startsWith("-")) {
                continue;
            }
            for (Class<?> c : COMMANDS) {
                Command command = c.getAnnotation(Command.class);
                if (command.name().equals(a) || List.of(command.aliases()).contains(a)) {
                    return c;
                }
            }
            return null;
        }
        return null;
    }

    private static int handle(Exception ex, CommandLine cl, CommandLine.ParseResult parsed) {
        PrintWriter err = cl.getErr();
        int code;
        if (ex instanceof UsageError u) {
            err.println("jdm: " + u.getMessage());
            code = ExitCode.USAGE;
        } else if (ConfigErrors.isConfigError(ex)) {
            ConfigErrors.print(ex, err);
            code = ExitCode.USAGE;
        } else if (ex instanceof JdmException j) {
            err.println("jdm: " + j.getMessage());
            // verify keeps 1 for "different": a comparison that could not be done is 2
            code = "verify".equals(cl.getCommandName()) ? ExitCode.VERIFY_ERROR : ExitCode.FAILED;
        } else {
            err.println("jdm: " + ErrorClassifier.oneLine(ex));
            code = ExitCode.FAILED;
        }
        if (verbose) {
            ex.printStackTrace(err);
        } else if (!(ex instanceof UsageError) && !ConfigErrors.isConfigError(ex)) {
            err.println("(run with --verbose for details)");
        }
        err.flush();
        return code;
    }

    /** Prints the version from the jar manifest. */
    static final class Version implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() {
            String v = Jdm.class.getPackage().getImplementationVersion();
            return new String[] {"jdm " + (v == null ? "dev" : v)};
        }
    }
}
