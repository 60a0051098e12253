package io.jdm.common.config;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * One key of the task file's top level or of a unit section ({@code mydumpers:}, {@code loaders:},
 * {@code syncers:}, {@code validators:}), declared once: its name, type, default, range, DM's default
 * and what it does. The reader ({@link #read}), the records' defaults and limits, the validation messages and the
 * key reference of {@code docs/task-file.md} ({@link TaskKeys#render()}) all come from here.
 *
 * @param <T> the value read
 */
public final class TaskKey<T> {
    /** One limit for every thread count of a task file (threads, pool-size, worker-count and their aliases). */
    static final int MAX_THREADS = 1024;
    /** The section name of the task file's own keys ({@link TaskRootKeys}). */
    public static final String TOP_LEVEL = "(top level)";

    /** How a key's value is read from its section, with the declaration's default and range. */
    @FunctionalInterface
    interface Reader<T> {
        T read(Section s, TaskKey<T> key);
    }

    private final String section;
    private final String name;
    private final String type;
    private final T def;
    private final String defText;
    private final long min;
    private final long max;
    private final String range;
    private final String dmDefault;
    private final String description;
    private final Reader<T> reader;
    private final boolean nested;

    private TaskKey(Declarer d, String name, String type, T def, String defText, long min, long max, String range,
                    String dmDefault, String description, Reader<T> reader, boolean nested) {
        this.section = d.section;
        this.name = name;
        this.type = type;
        this.def = def;
        this.defText = defText;
        this.min = min;
        this.max = max;
        this.range = range;
        this.dmDefault = dmDefault;
        this.description = description;
        this.reader = reader;
        this.nested = nested;
    }

    /** The declarations of one section, in the order the section reads them. */
    static Declarer in(String section) {
        return new Declarer(section);
    }

    /** Reads this key from an entry of its section; a broken rule is a problem there, and the default is returned. */
    public T read(Section s) {
        if (reader == null) {
            throw new UnsupportedOperationException(section + "." + name + " is read with the key it names");
        }
        return reader.read(s, this);
    }

    public String section() {
        return section;
    }

    public String name() {
        return name;
    }

    /** What the reference calls its type: integer, boolean, seconds, duration, one of …, ignored. */
    public String type() {
        return type;
    }

    /** jdm's default, what {@link #read} returns when the key is left out. */
    public T def() {
        return def;
    }

    /** The default as a task file would write it. */
    public String defText() {
        return defText;
    }

    /** The lower bound of a numeric key. */
    public long min() {
        requireRange();
        return min;
    }

    /** The upper bound of a numeric key. */
    public long max() {
        requireRange();
        return max;
    }

    /** {@link #max()} of a key whose values fit an int. */
    public int maxInt() {
        return Math.toIntExact(max());
    }

    /** {@link #min()} of a key whose values fit an int. */
    public int minInt() {
        return Math.toIntExact(min());
    }

    /** The rule a value must meet, as the reference shows it; empty where any value of the type will do. */
    public String range() {
        return range;
    }

    /** DM's default for the key, "—" where DM has no such key. */
    public String dmDefault() {
        return dmDefault;
    }

    public String description() {
        return description;
    }

    /** Read and ignored with a warning (a DM key jdm has no use for). */
    public boolean ignored() {
        return type.equals(Declarer.IGNORED);
    }

    /** Refused when set to anything but DM's empty value (a DM feature jdm lacks). */
    public boolean refused() {
        return type.equals(Declarer.REFUSED);
    }

    /** A mapping or list of rules with a reader and a reference of its own; declared here by name only. */
    public boolean nested() {
        return nested;
    }

    private void requireRange() {
        if (min > max) {
            throw new IllegalStateException(section + "." + name + " has no numeric range");
        }
    }

    @Override
    public String toString() {
        return section.equals(TOP_LEVEL) ? name : section + ".*." + name;
    }

    /** Declares the keys of one section, remembering them in order for {@link #declared()}. */
    static final class Declarer {
        static final String IGNORED = "ignored";
        static final String REFUSED = "refused";
        /** The default column of a key the task file must set. */
        static final String REQUIRED = "required";
        /** DM's default column for a key DM does not have. */
        static final String NOT_IN_DM = "—";

        private final String section;
        private final List<TaskKey<?>> keys = new ArrayList<>();

        private Declarer(String section) {
            this.section = section;
        }

        /** Every key declared so far, in declaration order. */
        List<TaskKey<?>> declared() {
            return List.copyOf(keys);
        }

        /** A thread count in 1..max ({@link #MAX_THREADS} for the units' own); 0, DM's "not set", is the default. */
        TaskKey<Integer> threads(String name, int def, int max, String dm, String description) {
            return add(name, "integer", def, String.valueOf(def), 1, max, "1.." + max + "; 0 is the default", dm,
                    description, (s, k) -> s.threads(k.name, k.def, k.maxInt()));
        }

        TaskKey<Integer> integer(String name, int def, int min, int max, String dm, String description) {
            return add(name, "integer", def, String.valueOf(def), min, max, min + ".." + max, dm, description,
                    (s, k) -> s.integer(k.name, k.def, k.minInt(), k.maxInt()));
        }

        TaskKey<Long> longInteger(String name, long def, long min, long max, String dm, String description) {
            return add(name, "integer", def, String.valueOf(def), min, max, min + ".." + max, dm, description,
                    (s, k) -> s.longInteger(k.name, k.def, k.min, k.max));
        }

        /** A ring size: another value in range is rounded up to a power of two, with a warning. */
        TaskKey<Integer> powerOfTwo(String name, int def, int min, int max, String dm, String description) {
            return add(name, "integer", def, String.valueOf(def), min, max,
                    min + ".." + max + ", rounded up to a power of two", dm, description,
                    (s, k) -> s.powerOfTwo(k.name, k.def, k.minInt(), k.maxInt()));
        }

        TaskKey<Boolean> bool(String name, boolean def, String dm, String description) {
            return add(name, "boolean", def, String.valueOf(def), 1, 0, "", dm, description,
                    (s, k) -> s.bool(k.name, k.def));
        }

        /** Whole seconds in min..max, as DM writes intervals. */
        TaskKey<Duration> seconds(String name, int def, int min, int max, String dm, String description) {
            return add(name, "seconds", Duration.ofSeconds(def), String.valueOf(def), min, max, min + ".." + max, dm,
                    description, (s, k) -> s.seconds(k.name, (int) k.def.toSeconds(), k.minInt(), k.maxInt()));
        }

        /** A Go-style duration ({@code 60s}, {@code 5m}) read by {@code reader}. */
        TaskKey<Duration> duration(String name, Duration def, String range, String dm, String description,
                                   Reader<Duration> reader) {
            return add(name, "duration", def, goText(def), 1, 0, range, dm, description, reader);
        }

        /** One of {@code names}; {@code def} null means required. */
        <E> TaskKey<E> choice(String name, E def, Map<String, E> names, String dm, String description) {
            String defText = def == null ? REQUIRED : names.entrySet().stream().filter(e -> e.getValue().equals(def))
                    .map(Map.Entry::getKey).findFirst().orElseThrow();
            return add(name, "one of " + String.join(", ", names.keySet()), def, defText, 1, 0, "", dm,
                    description, (s, k) -> s.choice(k.name, k.def, names));
        }

        /**
         * Text that must match {@code rule}; {@code def} null means required. {@code because}, when not
         * empty, follows the rule in the message.
         */
        TaskKey<String> matching(String name, String def, Pattern rule, String because, String dm,
                                 String description) {
            String ruleText = "match " + rule.pattern() + (because.isEmpty() ? "" : " (" + because + ")");
            return add(name, "text", def, def == null ? REQUIRED : def, 1, 0, rule.pattern(), dm, description,
                    (s, k) -> s.matching(k.name, rule, ruleText, k.def));
        }

        /** A key whose type, default and rule are its reader's own. */
        <V> TaskKey<V> custom(String name, String type, V def, String defText, long min, long max, String range,
                              String dm, String description, Reader<V> reader) {
            return add(name, type, def, defText, min, max, range, dm, description, reader);
        }

        /** A DM key jdm reads and ignores: present means one warning that gives {@code reason}. */
        TaskKey<Void> ignored(String name, String reason) {
            return add(name, IGNORED, null, "", 1, 0, "", "", reason, (s, k) -> {
                s.ignored(k.name, k.description);
                return null;
            });
        }

        /**
         * A DM key jdm refuses: set to anything but DM's empty value (which dmctl's get-task writes back)
         * means a problem that gives {@code reason}.
         */
        TaskKey<Void> refused(String name, String reason) {
            return add(name, REFUSED, null, "", 1, 0, "", "", reason, (s, k) -> {
                s.unsupportedUnlessEmpty(k.name, k.description);
                return null;
            });
        }

        /** A mapping or list of rules, read and described elsewhere; {@code type} says which. */
        TaskKey<Void> nested(String name, String type, String description) {
            return add(name, type, null, "", 1, 0, "", "", description, null, true);
        }

        private <V> TaskKey<V> add(String name, String type, V def, String defText, long min, long max, String range,
                                   String dm, String description, Reader<V> reader) {
            return add(name, type, def, defText, min, max, range, dm, description, reader, false);
        }

        private <V> TaskKey<V> add(String name, String type, V def, String defText, long min, long max, String range,
                                   String dm, String description, Reader<V> reader, boolean nested) {
            Objects.requireNonNull(description, "description");
            TaskKey<V> k = new TaskKey<>(this, name, type, def, defText, min, max, range, dm, description, reader,
                    nested);
            keys.add(k);
            return k;
        }

        /** A duration as a task file writes it: {@code 30m}, {@code 60s}, {@code 2h}. */
        static String goText(Duration d) {
            long s = d.toSeconds();
            if (s != 0 && s % 3600 == 0) {
                return s / 3600 + "h";
            }
            return s != 0 && s % 60 == 0 && s > 60 ? s / 60 + "m" : s + "s";
        }
    }
}
