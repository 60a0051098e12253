package io.jdm.cli.run;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The monitoring jdm ships in {@code conf/}: DM's alert rules ({@code conf/prometheus}) and
 * dashboard ({@code conf/grafana}), their PromQL expressions, and the series selectors in them
 * (metric name and the labels matched), read with a small PromQL tokenizer: strings, ranges and
 * the label lists of {@code by}, {@code on} and the like are passed over, a name followed by
 * {@code (} is a function, so is an aggregation, any other name a metric.
 */
final class DmMonitoring {
    static final String RULES = "conf/prometheus/dm_worker.rules.yml";
    static final String DASHBOARD = "conf/grafana/DM-Monitor.json";
    private static final Set<String> LABEL_LISTS = Set.of("by", "without", "on", "ignoring", "group_left",
            "group_right");
    private static final Set<String> KEYWORDS = Set.of("and", "or", "unless", "bool", "offset");
    /** Aggregations, which may put {@code by (...)} between their name and their argument. */
    private static final Set<String> AGGREGATIONS = Set.of("sum", "min", "max", "avg", "group", "stddev", "stdvar",
            "count", "count_values", "bottomk", "topk", "quantile");

    /** A series selector: the metric and the labels its matchers name. */
    record Selector(String metric, Set<String> labels) {
    }

    private DmMonitoring() {
    }

    /** The file under the repository root, found from wherever the build runs. */
    static Path file(String relative) {
        for (Path p = Path.of("").toAbsolutePath(); p != null; p = p.getParent()) {
            if (Files.isRegularFile(p.resolve(relative))) {
                return p.resolve(relative);
            }
        }
        throw new IllegalStateException(relative + " not found above the working directory");
    }

    /** The {@code expr} of every alert rule. */
    static List<String> ruleExpressions() {
        List<String> out = new ArrayList<>();
        read(RULES, new ObjectMapper(new YAMLFactory())).path("groups")
                .forEach(g -> g.path("rules").forEach(r -> out.add(r.path("expr").asText())));
        return out;
    }

    /**
     * The {@code expr} of every panel's targets, and the series selector of every templating
     * variable's {@code label_values(selector, label)} query.
     */
    static List<String> dashboardExpressions() {
        JsonNode d = read(DASHBOARD, new ObjectMapper());
        List<String> out = new ArrayList<>();
        d.path("panels").forEach(p -> p.path("targets").forEach(t -> out.add(t.path("expr").asText())));
        for (JsonNode v : d.path("templating").path("list")) {
            String q = v.path("query").path("query").asText("");
            if (q.startsWith("label_values(")) {
                out.add(q.substring("label_values(".length(), q.lastIndexOf(',')));
            }
        }
        return out;
    }

    private static JsonNode read(String relative, ObjectMapper mapper) {
        try {
            return mapper.readTree(file(relative).toFile());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The selectors of one PromQL expression, in order. */
    static List<Selector> selectors(String expr) {
        List<Selector> out = new ArrayList<>();
        int i = 0;
        int n = expr.length();
        while (i < n) {
            char c = expr.charAt(i);
            if (c == '"' || c == '\'' || c == '`') {
                i = skipString(expr, i);
            } else if (c == '[') {
                i = expr.indexOf(']', i) + 1;
            } else if (c == '{') {
                throw new IllegalArgumentException("a selector without a metric name: " + expr);
            } else if (Character.isDigit(c) || c == '.') {
                while (i < n && (Character.isLetterOrDigit(expr.charAt(i)) || expr.charAt(i) == '.')) {
                    i++;
                }
            } else if (Character.isLetter(c) || c == '_' || c == ':') {
                int start = i;
                while (i < n && (Character.isLetterOrDigit(expr.charAt(i)) || expr.charAt(i) == '_'
                        || expr.charAt(i) == ':')) {
                    i++;
                }
                String word = expr.substring(start, i);
                int next = skipSpace(expr, i);
                if (LABEL_LISTS.contains(word.toLowerCase())) {
                    i = next < n && expr.charAt(next) == '(' ? expr.indexOf(')', next) + 1 : next;
                } else if (KEYWORDS.contains(word.toLowerCase()) || AGGREGATIONS.contains(word.toLowerCase())
                        || (next < n && expr.charAt(next) == '(')) {
                    i = next;
                } else {
                    Set<String> labels = new LinkedHashSet<>();
                    if (next < n && expr.charAt(next) == '{') {
                        i = matchers(expr, next, labels);
                    }
                    out.add(new Selector(word, labels));
                }
            } else {
                i++;
            }
        }
        return out;
    }

    /** Reads {@code {label op "value", ...}} from {@code open}; returns the index after {@code }}. */
    private static int matchers(String expr, int open, Set<String> labels) {
        int i = open + 1;
        while (true) {
            i = skipSpace(expr, i);
            if (expr.charAt(i) == '}') {
                return i + 1;
            }
            int start = i;
            while (Character.isLetterOrDigit(expr.charAt(i)) || expr.charAt(i) == '_') {
                i++;
            }
            labels.add(expr.substring(start, i));
            while ("=!~ ".indexOf(expr.charAt(i)) >= 0) {
                i++;
            }
            i = skipString(expr, i);
            i = skipSpace(expr, i);
            if (expr.charAt(i) == ',') {
                i++;
            }
        }
    }

    private static int skipString(String expr, int quote) {
        char q = expr.charAt(quote);
        int i = quote + 1;
        while (expr.charAt(i) != q) {
            i += expr.charAt(i) == '\\' ? 2 : 1;
        }
        return i + 1;
    }

    private static int skipSpace(String expr, int i) {
        while (i < expr.length() && Character.isWhitespace(expr.charAt(i))) {
            i++;
        }
        return i;
    }
}
