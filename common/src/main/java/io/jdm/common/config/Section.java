package io.jdm.common.config;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.math.BigInteger;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.Set;
import java.util.function.BiFunction;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One YAML mapping being read. Each typed getter declares a key (its type, default and rule in
 * one call), records a problem with the key's full path when the value breaks the rule, and
 * returns the default so reading goes on and every problem is found in one pass. {@link #finish()}
 * then reports the keys nobody declared, with the closest declared key as a hint.
 *
 * <p>Public for the other YAML file jdm reads, the bench file ({@link #read}): its task-file-shaped
 * keys go through the task file's own readers ({@link UnitReaders}, {@link DatabaseReader}), and its
 * own keys through these getters, so both files have one set of rules and messages.
 */
public final class Section {
    private static final Pattern INTEGER = Pattern.compile("[-+]?\\d+");
    private static final Pattern DURATION = Pattern.compile("(?:\\d+(?:ns|us|µs|ms|h|m|s))+");
    private static final Pattern DURATION_PART = Pattern.compile("(\\d+)(ns|us|µs|ms|h|m|s)");
    /** YAML 1.1's booleans, as DM's YAML library reads them. */
    static final Set<String> TRUE = Set.of("true", "yes", "y", "on");
    static final Set<String> FALSE = Set.of("false", "no", "n", "off");

    private final ObjectNode node;
    private final String path;
    private final ReadContext ctx;
    private final Set<String> known = new LinkedHashSet<>();
    private final Set<String> unsupported = new HashSet<>();
    /** The key messages show as {@code key[i]}: this mapping holds one element of a list (see {@link #each}). */
    private final String element;
    private final int index;

    private Section(ObjectNode node, String path, ReadContext ctx) {
        this(node, path, ctx, null, -1);
    }

    private Section(ObjectNode node, String path, ReadContext ctx, String element, int index) {
        this.node = node;
        this.path = path;
        this.ctx = ctx;
        this.element = element;
        this.index = index;
    }

    /**
     * Reads a YAML document as the task file is read (raw scalars, {@code ${VAR}} from the process
     * environment, every key declared): {@code reader} walks the root mapping and returns what it
     * built, or null once it has recorded a problem that leaves nothing to build.
     *
     * @param sourceName what messages about the document as a whole call it
     * @throws ConfigException with every problem found
     */
    public static <T> T read(String yaml, Path baseDir, String sourceName, Function<Section, T> reader) {
        List<String> problems = new ArrayList<>();
        ReadContext ctx = ReadContext.forTask(problems, new ArrayList<>(), sourceName, baseDir, System::getenv);
        T result = document(yaml, ctx).map(reader).orElse(null);
        if (!problems.isEmpty() || result == null) {
            throw new ConfigException(problems);
        }
        return result;
    }

    /** The root mapping of a YAML document, {@code ${VAR}} substituted; empty (with a problem) when there is none. */
    static Optional<Section> document(String yaml, ReadContext ctx) {
        JsonNode tree = YamlTree.read(yaml, ctx);
        if (tree == null) {
            return Optional.empty();
        }
        EnvSubstitution.apply(tree, ctx);
        return of(tree, "", ctx);
    }

    /** The mapping at {@code path}, or empty (with a problem) when the node is something else. */
    static Optional<Section> of(JsonNode node, String path, ReadContext ctx) {
        if (node instanceof ObjectNode o) {
            return Optional.of(new Section(o, path, ctx));
        }
        ctx.problem(path, "must be a mapping, got " + ValueText.render(node, ctx));
        return Optional.empty();
    }

    static String join(String path, String key) {
        return path.isEmpty() ? key : path + "." + key;
    }

    String path() {
        return path;
    }

    String path(String key) {
        return join(path, key.equals(element) ? key + "[" + index + "]" : key);
    }

    ReadContext ctx() {
        return ctx;
    }

    /** A problem about this mapping as a whole. */
    void problem(String message) {
        ctx.problem(path, message);
    }

    /** A problem about a key (or {@code key[i]}) of this mapping. */
    public void problem(String key, String message) {
        ctx.problem(path(key), message);
    }

    /** A warning about a key of this mapping: the task runs, the user is told how it was read. */
    void warning(String key, String message) {
        ctx.warning(path(key), message);
    }

    /** Declares the key; true when it holds a non-null value. */
    public boolean has(String key) {
        return get(key) != null;
    }

    boolean isList(String key) {
        return get(key) instanceof ArrayNode;
    }

    /** How the value of this key is shown in a message; never a value that came from the environment. */
    public String shown(String key) {
        return ValueText.render(node.get(key), ctx);
    }

    /** How the {@code index}-th element of the list under {@code key} is shown; -1 means the key's value. */
    String shown(String key, int index) {
        JsonNode v = node.get(key);
        return ValueText.render(index >= 0 && v != null ? v.get(index) : v, ctx);
    }

    /** The text as written in the file: for a substituted value, the {@code ${VAR}} text, never the value. */
    String written(String key) {
        JsonNode v = node.get(key);
        String original = v == null ? null : ctx.envOriginal(v);
        return original != null ? original : v == null ? "" : v.asText();
    }

    // ---- text ----

    /** A scalar as text, empty when absent; {@code ""} is a value. */
    public Optional<String> text(String key) {
        JsonNode v = get(key);
        if (v == null) {
            return Optional.empty();
        }
        if (!v.isTextual()) {
            problem(key, "must be a string, got " + ValueText.render(v, ctx));
            return Optional.empty();
        }
        return Optional.of(v.textValue());
    }

    /** A scalar as text; absent and blank are both "not set". */
    Optional<String> optionalText(String key) {
        return text(key).filter(s -> !s.isBlank());
    }

    /** A non-blank scalar, or a {@code required} problem and {@code ""}. */
    String requiredText(String key) {
        Optional<String> v = text(key);
        if (v.isEmpty() && !has(key) || v.isPresent() && v.get().isBlank()) {
            problem(key, "required");
        }
        return v.filter(s -> !s.isBlank()).orElse("");
    }

    /** Text that must match {@code rule}; {@code def} null means required. */
    public String matching(String key, Pattern rule, String ruleText, String def) {
        if (def == null) {
            String v = requiredText(key);
            return v.isEmpty() || check(key, v, rule, ruleText) ? v : "";
        }
        return optionalMatching(key, rule, ruleText).orElse(def);
    }

    Optional<String> optionalMatching(String key, Pattern rule, String ruleText) {
        return optionalText(key).filter(v -> check(key, v, rule, ruleText));
    }

    private boolean check(String key, String v, Pattern rule, String ruleText) {
        if (rule.matcher(v).matches()) {
            return true;
        }
        problem(key, "must " + ruleText + ", got " + shown(key));
        return false;
    }

    // ---- numbers ----

    public int integer(String key, int def, int min, int max) {
        return (int) longInteger(key, def, min, max);
    }

    public long longInteger(String key, long def, long min, long max) {
        OptionalLong v = optionalLong(key, min, max);
        return v.isPresent() ? v.getAsLong() : def;
    }

    /** A thread count in 1..max; DM writes 0 for "the default", and so it reads here. */
    int threads(String key, int def, int max) {
        OptionalInt v = optionalThreads(key, max);
        return v.isPresent() ? v.getAsInt() : def;
    }

    /** An optional thread count in 1..max; 0 is DM's "not set". */
    OptionalInt optionalThreads(String key, int max) {
        JsonNode v = get(key);
        if (v != null && v.isTextual() && v.textValue().strip().equals("0")) {
            return OptionalInt.empty();
        }
        return optionalInt(key, 1, max);
    }

    OptionalInt optionalInt(String key, int min, int max) {
        OptionalLong v = optionalLong(key, min, max);
        return v.isPresent() ? OptionalInt.of((int) v.getAsLong()) : OptionalInt.empty();
    }

    OptionalLong optionalLong(String key, long min, long max) {
        JsonNode v = get(key);
        if (v == null) {
            return OptionalLong.empty();
        }
        if (!v.isTextual() || !INTEGER.matcher(v.textValue().strip()).matches()) {
            problem(key, "must be an integer, got " + ValueText.render(v, ctx));
            return OptionalLong.empty();
        }
        BigInteger n = new BigInteger(v.textValue().strip());
        if (n.compareTo(BigInteger.valueOf(min)) < 0 || n.compareTo(BigInteger.valueOf(max)) > 0) {
            problem(key, "must be " + min + ".." + max + ", got " + ValueText.render(v, ctx));
            return OptionalLong.empty();
        }
        return OptionalLong.of(n.longValue());
    }

    /**
     * A size in min..max for a ring buffer, which needs a power of two: DM takes any size, so
     * another value is rounded up to the next power of two, with a warning that says so.
     */
    int powerOfTwo(String key, int def, int min, int max) {
        JsonNode v = get(key);
        if (v == null) {
            return def;
        }
        String rule = "must be " + min + ".." + max + ", got " + ValueText.render(v, ctx);
        if (!v.isTextual() || !INTEGER.matcher(v.textValue().strip()).matches()) {
            problem(key, rule);
            return def;
        }
        BigInteger n = new BigInteger(v.textValue().strip());
        if (n.compareTo(BigInteger.valueOf(min)) < 0 || n.compareTo(BigInteger.valueOf(max)) > 0) {
            problem(key, rule);
            return def;
        }
        int size = n.intValue();
        int rounded = Integer.bitCount(size) == 1 ? size : Integer.highestOneBit(size) << 1;
        if (rounded != size) {
            warning(key, "read as " + rounded + ": jdm's ring holds a power of two of events");
        }
        return rounded;
    }

    /** Whole seconds in min..max, as DM writes intervals. */
    Duration seconds(String key, int def, int min, int max) {
        return Duration.ofSeconds(integer(key, def, min, max));
    }

    /** A Go-style duration: {@code 60s}, {@code 5m}, {@code 1h30m}, {@code 500ms}, or {@code 0} as Go reads it. */
    public Duration duration(String key, Duration def) {
        JsonNode v = get(key);
        if (v == null) {
            return def;
        }
        Optional<Duration> d = v.isTextual() ? goDuration(v.textValue()) : Optional.empty();
        if (d.isEmpty()) {
            problem(key, "must be a duration such as 60s or 5m, got " + ValueText.render(v, ctx));
            return def;
        }
        return d.get();
    }

    /** A Go-style duration ({@code 60s}, {@code 1h30m}, {@code 500ms}, {@code 0}); empty when it is not one. */
    public static Optional<Duration> goDuration(String text) {
        String t = text.strip();
        if (t.equals("0")) {
            return Optional.of(Duration.ZERO);
        }
        return DURATION.matcher(t).matches() ? Optional.of(parseDuration(t)) : Optional.empty();
    }

    /** Sums the parts of an already validated duration such as {@code 1h30m}. */
    private static Duration parseDuration(String text) {
        Duration d = Duration.ZERO;
        Matcher m = DURATION_PART.matcher(text);
        while (m.find()) {
            long n = Long.parseLong(m.group(1));
            d = d.plus(switch (m.group(2)) {
                case "ns" -> Duration.ofNanos(n);
                case "us", "µs" -> Duration.ofNanos(n * 1000);
                case "ms" -> Duration.ofMillis(n);
                case "s" -> Duration.ofSeconds(n);
                case "m" -> Duration.ofMinutes(n);
                default -> Duration.ofHours(n);
            });
        }
        return d;
    }

    // ---- booleans and choices ----

    public boolean bool(String key, boolean def) {
        return optionalBool(key).orElse(def);
    }

    Optional<Boolean> optionalBool(String key) {
        JsonNode v = get(key);
        if (v == null) {
            return Optional.empty();
        }
        String s = v.isTextual() ? v.textValue().strip().toLowerCase(Locale.ROOT) : "";
        if (TRUE.contains(s)) {
            return Optional.of(true);
        }
        if (FALSE.contains(s)) {
            return Optional.of(false);
        }
        problem(key, "must be true or false, got " + ValueText.render(v, ctx));
        return Optional.empty();
    }

    /** One of {@code names} (matched ignoring case); {@code def} null means required. */
    public <E> E choice(String key, E def, Map<String, E> names) {
        Optional<E> v = optionalChoice(key, names);
        if (v.isEmpty() && def == null && !has(key)) {
            problem(key, "required");
        }
        return v.orElse(def);
    }

    <E> Optional<E> optionalChoice(String key, Map<String, E> names) {
        Optional<String> v = text(key);
        if (v.isEmpty()) {
            return Optional.empty();
        }
        for (Map.Entry<String, E> e : names.entrySet()) {
            if (e.getKey().equalsIgnoreCase(v.get().strip())) {
                return Optional.of(e.getValue());
            }
        }
        problem(key, "must be one of " + String.join(", ", names.keySet()) + ", got " + shown(key));
        return Optional.empty();
    }

    /** The names of enum constants as a task file spells them (lower case, {@code _} as {@code -}), in declaration order, for {@link #choice}. */
    public static <E extends Enum<E>> Map<String, E> names(E[] values) {
        Map<String, E> m = new LinkedHashMap<>();
        for (E e : values) {
            m.put(e.name().toLowerCase(Locale.ROOT).replace('_', '-'), e);
        }
        return Collections.unmodifiableMap(m);
    }

    // ---- secrets ----

    /** A password: absent means none. Its value never appears in a message, whatever is wrong. */
    Secret secret(String key) {
        JsonNode v = get(key);
        if (v == null) {
            return Secret.EMPTY;
        }
        if (!v.isTextual()) {
            problem(key, "must be a string");
            return Secret.EMPTY;
        }
        return Secret.of(v.textValue());
    }

    // ---- collections ----

    /** A list of scalars; absent means empty. */
    List<String> texts(String key) {
        JsonNode v = get(key);
        if (v == null) {
            return List.of();
        }
        if (!(v instanceof ArrayNode a)) {
            problem(key, "must be a list, got " + ValueText.render(v, ctx));
            return List.of();
        }
        List<String> out = new ArrayList<>();
        for (int i = 0; i < a.size(); i++) {
            JsonNode e = a.get(i);
            if (e.isTextual()) {
                out.add(e.textValue());
            } else {
                problem(key + "[" + i + "]", "must be a string, got " + ValueText.render(e, ctx));
            }
        }
        return out;
    }

    /** A mapping of scalars, in file order; absent means empty. */
    Map<String, String> textMap(String key) {
        Optional<Section> s = section(key);
        if (s.isEmpty()) {
            return Map.of();
        }
        Map<String, String> out = new LinkedHashMap<>();
        for (Map.Entry<String, JsonNode> e : s.get().node.properties()) {
            if (e.getValue().isTextual()) {
                out.put(e.getKey(), e.getValue().textValue());
            } else {
                s.get().problem(e.getKey(), "must be a string, got " + ValueText.render(e.getValue(), ctx));
            }
        }
        return out;
    }

    public Optional<Section> section(String key) {
        JsonNode v = get(key);
        return v == null ? Optional.empty() : of(v, path(key), ctx);
    }

    /** A mapping of name → mapping ({@code syncers:}, {@code routes:} ...), in file order. */
    <T> Map<String, T> named(String key, BiFunction<String, Section, T> reader) {
        Optional<Section> s = section(key);
        if (s.isEmpty()) {
            return Map.of();
        }
        Map<String, T> out = new LinkedHashMap<>();
        for (Map.Entry<String, JsonNode> e : s.get().node.properties()) {
            if (e.getKey().isBlank()) {
                s.get().problem("names must not be empty");
                continue;
            }
            of(e.getValue(), s.get().path(e.getKey()), ctx)
                    .ifPresent(entry -> out.put(e.getKey(), reader.apply(e.getKey(), entry)));
        }
        return Collections.unmodifiableMap(out);
    }

    /** True when the key holds a mapping. */
    public boolean isMapping(String key) {
        return get(key) instanceof ObjectNode;
    }

    /**
     * One value or a list of values under {@code key}, as a bench sweep names them: each is read by
     * {@code reader} from a mapping that holds {@code key} with that one value, so it meets the rule
     * the key has anywhere else; messages name {@code key[i]} for an element of a list. Absent means
     * empty; an empty list is a problem.
     */
    public <T> List<T> each(String key, Function<Section, T> reader) {
        JsonNode v = get(key);
        if (v == null) {
            return List.of();
        }
        if (!(v instanceof ArrayNode a)) {
            return List.of(reader.apply(single(key, v, -1)));
        }
        if (a.isEmpty()) {
            problem(key, "must list at least one value");
        }
        List<T> out = new ArrayList<>();
        for (int i = 0; i < a.size(); i++) {
            out.add(reader.apply(single(key, a.get(i), i)));
        }
        return out;
    }

    /** A mapping of this one key and value, at this mapping's path; {@code index} ≥ 0 shows the key as {@code key[index]}. */
    private Section single(String key, JsonNode value, int index) {
        ObjectNode one = JsonNodeFactory.instance.objectNode();
        one.set(key, value);
        return new Section(one, path, ctx, index < 0 ? null : key, index);
    }

    /** A list of mappings ({@code mysql-instances:}, {@code do-tables:}); absent means empty. */
    <T> List<T> list(String key, BiFunction<Integer, Section, T> reader) {
        JsonNode v = get(key);
        if (v == null) {
            return List.of();
        }
        if (!(v instanceof ArrayNode a)) {
            problem(key, "must be a list, got " + ValueText.render(v, ctx));
            return List.of();
        }
        List<T> out = new ArrayList<>();
        for (int i = 0; i < a.size(); i++) {
            int index = i;
            of(a.get(i), path(key) + "[" + i + "]", ctx).ifPresent(s -> out.add(reader.apply(index, s)));
        }
        return out;
    }

    // ---- keys jdm refuses, and keys nobody declared ----

    /** A key DM accepts and jdm does not use: present means one warning that says why, never a problem. */
    void ignored(String key, String reason) {
        unsupported.add(key);
        if (get(key) != null) {
            warning(key, reason);
        }
    }

    /** A key DM has and jdm does not: present means a problem that says why and what to do. */
    void unsupported(String key, String reason) {
        unsupported.add(key);
        if (get(key) != null) {
            problem(key, reason);
        }
    }

    /**
     * As {@link #unsupported}, for rules of a feature that dmctl's get-task writes back empty when the
     * task does not use it: an empty list, mapping or text is DM's zero value, not a use.
     */
    void unsupportedUnlessEmpty(String key, String reason) {
        unsupported.add(key);
        JsonNode v = get(key);
        if (v != null && !(v.isTextual() && v.textValue().isBlank()) && !(v.isContainerNode() && v.isEmpty())) {
            problem(key, reason);
        }
    }

    /** The keys read so far, in order: what a reader declares (for the test that holds readers to {@link TaskKey}s). */
    Set<String> keysRead() {
        return Collections.unmodifiableSet(known);
    }

    /** Reports every key of this mapping that no getter declared. Call after all reads. */
    public void finish() {
        List<String> candidates = known.stream().filter(k -> !unsupported.contains(k)).toList();
        for (Iterator<String> it = node.fieldNames(); it.hasNext(); ) {
            String key = it.next();
            if (!known.contains(key)) {
                problem(key, "unknown key" + Suggest.hint(key, candidates));
            }
        }
    }

    private JsonNode get(String key) {
        known.add(key);
        JsonNode v = node.get(key);
        return v == null || v.isNull() ? null : v;
    }
}
