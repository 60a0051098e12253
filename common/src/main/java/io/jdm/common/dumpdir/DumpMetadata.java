package io.jdm.common.dumpdir;

import io.jdm.common.config.Consistency;
import io.jdm.common.position.BinlogPosition;
import java.io.IOException;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The {@code metadata} file in mydumper's and Dumpling's format:
 *
 * <pre>
 * Started dump at: 2026-12-02 10:00:00
 * SHOW MASTER STATUS:
 * 	Log: mysql-bin.000003
 * 	Pos: 1234
 * 	GTID:0-1-42
 *
 * Finished dump at: 2026-12-02 10:01:00
 * </pre>
 *
 * or in mydumper's INI-like format of 0.14 and later, which only the load reads:
 *
 * <pre>
 * # Started dump at: 2026-12-02 10:00:00
 * [source]
 * File = mysql-bin.000003
 * Position = 1234
 * Executed_Gtid_Set = 0-1-42
 * </pre>
 *
 * jdm adds a {@code Consistency:} line; a position read without a lock ({@code consistency: none})
 * is marked so the load/sync units can warn. It also adds {@code Source sql_mode: '…'}, the
 * source's global sql_mode as the dump began: what decides which values the source's sessions
 * stored, and so the mode the load writes them back in.
 *
 * @param position null when the source had no binlog
 * @param sourceSqlMode null when the dump did not record it (mydumper, Dumpling, an older jdm)
 */
public record DumpMetadata(LocalDateTime started, LocalDateTime finished, BinlogPosition position,
                           String consistency, String sourceSqlMode) {
    private static final DateTimeFormatter TS = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss");
    private static final String SQL_MODE = "Source sql_mode:";

    /** Metadata without the source's sql_mode. */
    public DumpMetadata(LocalDateTime started, LocalDateTime finished, BinlogPosition position, String consistency) {
        this(started, finished, position, consistency, null);
    }

    public String render() {
        StringBuilder sb = new StringBuilder();
        sb.append("Started dump at: ").append(TS.format(started)).append('\n');
        if (position != null) {
            sb.append("SHOW MASTER STATUS:\n");
            sb.append("\tLog: ").append(position.file()).append('\n');
            sb.append("\tPos: ").append(position.pos()).append('\n');
            sb.append("\tGTID:").append(position.gtidSet()).append('\n');
        }
        if (consistency != null) {
            sb.append("Consistency: ").append(consistency).append('\n');
        }
        if (sourceSqlMode != null) {
            sb.append(SQL_MODE).append(" '").append(sourceSqlMode).append("'\n");
        }
        sb.append('\n');
        sb.append("Finished dump at: ").append(TS.format(finished)).append('\n');
        return sb.toString();
    }

    /** Writes {@code dir/metadata} atomically (temp file, then rename): its presence means the dump is complete. */
    public void writeTo(Path dir) throws IOException {
        AtomicFile.write(dir, DumpFileNames.METADATA, render());
    }

    /** Reads {@code dir/metadata}; empty when the file does not exist (an incomplete dump). */
    public static Optional<DumpMetadata> readFrom(Path dir) throws IOException {
        Optional<List<String>> lines = AtomicFile.readLines(dir, DumpFileNames.METADATA);
        return lines.isEmpty() ? Optional.empty() : Optional.of(parse(lines.get()));
    }

    static DumpMetadata parse(List<String> lines) {
        if (lines.stream().anyMatch(l -> l.strip().startsWith("["))) {
            return parseIni(lines);
        }
        LocalDateTime started = null;
        LocalDateTime finished = null;
        String log = null;
        long pos = -1;
        StringBuilder gtid = new StringBuilder();
        String consistency = null;
        String sqlMode = null;
        boolean inMaster = false;
        boolean inGtid = false;
        for (String raw : lines) {
            String line = raw.strip();
            if (line.startsWith("Started dump at:")) {
                started = time(line.substring("Started dump at:".length()));
            } else if (line.startsWith("Finished dump at:")) {
                finished = time(line.substring("Finished dump at:".length()));
            } else if (line.startsWith("SHOW MASTER STATUS") || line.startsWith("SHOW BINARY LOG STATUS")) {
                inMaster = true;
            } else if (line.startsWith("SHOW SLAVE STATUS") || line.startsWith("SHOW REPLICA STATUS")) {
                inMaster = false;
            } else if (line.startsWith("Consistency:")) {
                consistency = line.substring("Consistency:".length()).strip();
            } else if (line.startsWith(SQL_MODE)) {
                sqlMode = unquote(line.substring(SQL_MODE.length()).strip(), '\'');
            } else if (inMaster && line.startsWith("Log:")) {
                log = line.substring(4).strip();
                inGtid = false;
            } else if (inMaster && line.startsWith("Pos:")) {
                pos = Long.parseLong(line.substring(4).strip());
                inGtid = false;
            } else if (inMaster && line.startsWith("GTID:")) {
                gtid.append(line.substring(5).strip());
                inGtid = true;
            } else if (inGtid && line.matches("[0-9a-fA-F,:\\-]+")) {
                gtid.append(line); // multi-line GTID sets (MySQL prints one UUID per line)
            } else if (line.isEmpty()) {
                inGtid = false;
            }
        }
        BinlogPosition position = log == null || pos < 0 ? null : new BinlogPosition(log, pos, gtid.toString());
        return new DumpMetadata(started, finished, position, consistency, sqlMode);
    }

    /** mydumper ≥ 0.14: the position is in {@code [master]} (older) or {@code [source]}, as key = value. */
    private static DumpMetadata parseIni(List<String> lines) {
        LocalDateTime started = null;
        LocalDateTime finished = null;
        String log = null;
        long pos = -1;
        String gtid = "";
        boolean inSource = false;
        for (String raw : lines) {
            String line = raw.strip();
            if (line.startsWith("# Started dump at:")) {
                started = time(line.substring("# Started dump at:".length()));
            } else if (line.startsWith("# Finished dump at:")) {
                finished = time(line.substring("# Finished dump at:".length()));
            } else if (line.startsWith("[")) {
                inSource = line.equalsIgnoreCase("[master]") || line.equalsIgnoreCase("[source]");
            } else if (inSource && !line.startsWith("#") && line.indexOf('=') > 0) {
                String key = line.substring(0, line.indexOf('=')).strip().toLowerCase(Locale.ROOT);
                String value = unquote(line.substring(line.indexOf('=') + 1).strip(), '"');
                switch (key) {
                    case "file", "source_log_file" -> log = value;
                    case "position", "source_log_pos" -> pos = Long.parseLong(value);
                    case "executed_gtid_set" -> gtid = value;
                    default -> { }
                }
            }
        }
        BinlogPosition position = log == null || log.isEmpty() || pos < 0 ? null : new BinlogPosition(log, pos, gtid);
        return new DumpMetadata(started, finished, position, null);
    }

    private static String unquote(String v, char quote) {
        return v.length() >= 2 && v.charAt(0) == quote && v.charAt(v.length() - 1) == quote
                ? v.substring(1, v.length() - 1) : v;
    }

    private static LocalDateTime time(String s) {
        String t = s.strip();
        try {
            return LocalDateTime.parse(t.length() > 19 ? t.substring(0, 19) : t, TS);
        } catch (RuntimeException e) {
            return null;
        }
    }

    /** The {@code Consistency:} line as the mode it names; empty for another tool's dump, which has none. */
    public Optional<Consistency> consistencyMode() {
        return Consistency.ofLabel(consistency);
    }
}
