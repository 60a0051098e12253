package io.jdm.common.config;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * {@code mydumpers.<n>.extra-args}: the dumpling flags DM passes on (dm/pkg/dumpling ParseExtraArgs),
 * read into the settings jdm has. Flags DM accepts and jdm has no use for are warnings; the table
 * selectors are refused, because in DM they replace block-allow-list.
 */
final class ExtraArgs {
    private static final Map<String, String> SHORT = Map.of("-t", "--threads", "-F", "--filesize",
            "-s", "--statement-size", "-r", "--rows", "-w", "--where", "-B", "--database", "-T", "--tables-list",
            "-f", "--filter", "-W", "--no-views");
    private static final Set<String> TABLE_SELECTORS = Set.of("--database", "--tables-list", "--filter");
    private static final Set<String> UNUSED = Set.of("--snapshot", "--escape-backslash", "--ca", "--cert", "--key",
            "--transactional-consistency");
    private static final Set<String> SWITCHES = Set.of("--no-views", "--no-locks", "--escape-backslash",
            "--transactional-consistency");
    private static final Map<String, Consistency> CONSISTENCY = Section.names(Consistency.values());

    private final Section s;
    private MydumperConfig c;

    private ExtraArgs(Section s, MydumperConfig c) {
        this.s = s;
        this.c = c;
    }

    /** {@code c} with the flags of {@code extra-args} applied over it, as DM applies them after the keys. */
    static MydumperConfig apply(Section s, MydumperConfig c) {
        Optional<String> args = MydumperKeys.EXTRA_ARGS.read(s);
        if (args.isEmpty()) {
            return c;
        }
        ExtraArgs a = new ExtraArgs(s, c);
        a.read(split(args.get()));
        return a.c;
    }

    private void read(List<String> words) {
        for (int i = 0; i < words.size(); i++) {
            String word = words.get(i);
            String flag = word;
            String value = null;
            int eq = word.indexOf('=');
            if (word.startsWith("--") && eq > 0) {
                flag = word.substring(0, eq);
                value = word.substring(eq + 1);
            }
            flag = SHORT.getOrDefault(flag, flag);
            if (!flag.startsWith("--")) {
                problem("\"" + word + "\" is not a flag");
                continue;
            }
            if (value == null && !SWITCHES.contains(flag)) {
                if (i + 1 >= words.size()) {
                    problem(flag + " needs a value");
                    return;
                }
                value = words.get(++i);
            }
            flag(flag, value);
        }
    }

    private void flag(String flag, String value) {
        switch (flag) {
            case "--threads" -> number(flag, value, 1, MydumperConfig.MAX_THREADS).ifPresent(n -> c = with(c, n.intValue(), -1, -1, -1, null, null));
            case "--rows" -> number(flag, value, 0, MydumperConfig.MAX_ROWS).ifPresent(n -> c = with(c, -1, n, -1, -1, null, null));
            case "--statement-size" -> number(flag, value, 1, MydumperConfig.MAX_STATEMENT_SIZE)
                    .ifPresent(n -> c = with(c, -1, -1, n, -1, null, null));
            case "--filesize" -> FileSize.megabytes(value).filter(mb -> mb <= MydumperConfig.MAX_CHUNK_FILESIZE_MB)
                    .ifPresentOrElse(mb -> c = with(c, -1, -1, -1, mb, null, null),
                            () -> problem(flag + " must be a size in MiB 0.." + MydumperConfig.MAX_CHUNK_FILESIZE_MB
                                    + " such as 64MiB, got \"" + value + "\""));
            case "--consistency" -> consistency(flag, value);
            case "--where" -> c = with(c, -1, -1, -1, -1, null, value);
            case "--no-locks" -> c = with(c, -1, -1, -1, -1, Consistency.NONE, null);
            case "--no-views" -> s.warning("extra-args", "--no-views: jdm dumps tables only; ignored");
            default -> {
                if (TABLE_SELECTORS.contains(flag)) {
                    problem(flag + " chooses tables in DM in place of block-allow-list; jdm takes tables "
                            + "from block-allow-list only: move them there");
                } else if (UNUSED.contains(flag)) {
                    s.warning("extra-args", flag + ": a dumpling flag jdm has no use for; ignored");
                } else {
                    problem(flag + " is not a flag DM passes to its dump");
                }
            }
        }
    }

    private void consistency(String flag, String value) {
        Consistency v = CONSISTENCY.get(value.strip().toLowerCase(Locale.ROOT));
        if (v == null) {
            problem(flag + " must be one of " + String.join(", ", CONSISTENCY.keySet()) + ", got \"" + value + "\"");
        } else {
            c = with(c, -1, -1, -1, -1, v, null);
        }
    }

    private Optional<Long> number(String flag, String value, long min, long max) {
        try {
            long n = Long.parseLong(value.strip());
            if (n >= min && n <= max) {
                return Optional.of(n);
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        problem(flag + " must be " + min + ".." + max + ", got \"" + value + "\"");
        return Optional.empty();
    }

    private void problem(String message) {
        s.problem("extra-args", message);
    }

    /** A copy with the given settings replaced; -1 and null keep the current value. */
    private static MydumperConfig with(MydumperConfig c, int threads, long rows, long statementSize, long filesizeMb,
                                       Consistency consistency, String where) {
        return new MydumperConfig(threads < 0 ? c.threads() : threads, rows < 0 ? c.rows() : rows,
                statementSize < 0 ? c.statementSize() : statementSize,
                filesizeMb < 0 ? c.chunkFilesizeMb() : (int) filesizeMb,
                consistency == null ? c.consistency() : consistency,
                where == null ? c.where() : Optional.of(where), c.compress(), c.dir());
    }

    /** Splits like a shell: spaces separate words, single and double quotes group them. */
    static List<String> split(String line) {
        List<String> words = new ArrayList<>();
        StringBuilder word = new StringBuilder();
        boolean inWord = false;
        char quote = 0;
        for (int i = 0; i < line.length(); i++) {
            char ch = line.charAt(i);
            if (quote != 0) {
                if (ch == quote) {
                    quote = 0;
                } else {
                    word.append(ch);
                }
            } else if (ch == '\'' || ch == '"') {
                quote = ch;
                inWord = true;
            } else if (Character.isWhitespace(ch)) {
                if (inWord) {
                    words.add(word.toString());
                    word.setLength(0);
                    inWord = false;
                }
            } else {
                word.append(ch);
                inWord = true;
            }
        }
        if (inWord) {
            words.add(word.toString());
        }
        return words;
    }
}
