package io.jdm.cli.check;

import static com.mysql.cj.exceptions.MysqlErrorNumbers.ER_ACCESS_DENIED_ERROR;

import io.jdm.common.config.ShardMode;
import io.jdm.common.error.ErrorClassifier;
import io.jdm.common.jdbc.ConnectionSpec;
import io.jdm.common.jdbc.DataSources;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** Runs the checks a task needs against every source and the target. */
public final class Prechecker {
    private final PrecheckInput input;

    public Prechecker(PrecheckInput input) {
        this.input = input;
    }

    public List<CheckResult> run() {
        List<CheckResult> out = new ArrayList<>();
        List<ShardChecks.Shard> shards = new ArrayList<>();
        boolean shardsComplete = true;
        List<TargetTableChecks.LoadedSource> loaded = new ArrayList<>();
        for (PrecheckInput.Source s : input.sources()) {
            String inst = "source " + s.id();
            try (Connection c = DataSources.connect(s.spec())) {
                out.add(CheckResult.pass("connection", inst, "connected to " + s.spec().address()));
                ServerFacts f = ServerFacts.read(c);
                out.addAll(SourceChecks.run(f, inst, s, input));
                if (s.loadDir() != null) {
                    loaded.add(TargetTableChecks.collect(f, s));
                }
                boolean shapes = input.shardMode() != ShardMode.NONE && !ignored(ShardChecks.SCHEMA_ITEM);
                if (!ignored(ShardChecks.ITEM) || shapes) {
                    try {
                        shards.addAll(ShardChecks.collect(f, s, shapes));
                    } catch (SQLException e) {
                        shardsComplete = false;
                        out.add(CheckResult.warn(ShardChecks.ITEM, inst, "cannot read the AUTO_INCREMENT keys of the "
                                + "selected tables: " + ErrorClassifier.oneLine(e)));
                    }
                }
            } catch (SQLException e) {
                shardsComplete = false;
                out.add(CheckResult.fail("connection", inst, connectionProblem(s.spec(), e)));
            }
            if (s.loadDir() != null) {
                out.add(DumpDirCheck.run(inst, s.loadDir()));
            }
        }
        List<CheckResult> auto = new ArrayList<>(ShardChecks.autoIncrement(shards));
        auto.addAll(ShardChecks.schemas(shards, input.shardMode()));
        // A pass on part of the shards would say more than was checked.
        out.addAll(shardsComplete ? auto : auto.stream().filter(r -> r.status() != CheckResult.Status.PASS).toList());
        String inst = "target";
        try (Connection c = DataSources.connect(input.target())) {
            out.add(CheckResult.pass("connection", inst, "connected to " + input.target().address()));
            ServerFacts f = ServerFacts.read(c);
            out.addAll(TargetChecks.run(f, inst, input));
            if (!loaded.isEmpty()) {
                out.addAll(TargetTableChecks.run(c, inst, input, loaded,
                        loaded.size() == input.sources().stream().filter(s -> s.loadDir() != null).count()));
            }
        } catch (SQLException e) {
            out.add(CheckResult.fail("connection", inst, connectionProblem(input.target(), e)));
        }
        return out.stream().filter(r -> !ignored(r.item())).toList();
    }

    private boolean ignored(String item) {
        return input.ignore().contains("all") || input.ignore().contains(item);
    }

    /** One line that says why a connection failed and what to do. */
    static String connectionProblem(ConnectionSpec spec, SQLException e) {
        String addr = spec.host() + ":" + spec.port();
        if (e.getErrorCode() == ER_ACCESS_DENIED_ERROR && e.getMessage().contains("the user requires TLS")) {
            return "access denied for " + spec.user() + " at " + addr + " without TLS, let in over TLS: the user"
                    + " requires TLS (REQUIRE SSL or X509); add a security section (ssl-ca, and ssl-cert/ssl-key for"
                    + " X509) to its entry";
        }
        if (e.getErrorCode() == ER_ACCESS_DENIED_ERROR) {
            return "access denied for " + spec.user() + " at " + addr + ": check user and password";
        }
        if (ErrorClassifier.isAccessDenied(e)) {
            return "access denied at " + addr + ": " + ErrorClassifier.oneLine(e);
        }
        if (e.getMessage() != null && e.getMessage().contains("Public Key Retrieval is not allowed")) {
            return "cannot log in as " + spec.user() + " at " + addr + ": its password plugin (sha256_password, or "
                    + "caching_sha2_password without a cached hash) needs the server's RSA public key without TLS, and "
                    + "security.allow-public-key-retrieval is false: add ssl-ca (TLS) or server-rsa-public-key-file "
                    + "to its security section";
        }
        if (ErrorClassifier.isCertificateRefused(e)) { // Connector/J words it as a communications link failure
            return "cannot connect to " + addr + ": " + ErrorClassifier.oneLine(e);
        }
        String m = ErrorClassifier.oneLine(e).toLowerCase(Locale.ROOT);
        if (m.contains("communications link failure") || m.contains("connect") || "08S01".equals(e.getSQLState())) {
            return "no answer from " + addr + " within " + spec.connectTimeoutSeconds()
                    + "s: check host, port, that the server is running and that no firewall blocks it";
        }
        return "cannot connect to " + addr + ": " + ErrorClassifier.oneLine(e);
    }
}
