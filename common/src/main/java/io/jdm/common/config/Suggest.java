package io.jdm.common.config;

import java.util.Collection;
import java.util.Optional;

/** "Did you mean ...?" for misspelt keys and names. */
final class Suggest {
    private static final int MAX_DISTANCE = 3;

    private Suggest() {
    }

    /**
     * The candidate closest to {@code word} by edit distance, if within 3 edits and closer than
     * the word is long (so that "a" does not suggest "dir"); the first candidate wins a tie.
     */
    static Optional<String> closest(String word, Collection<String> candidates) {
        String best = null;
        int bestDistance = Integer.MAX_VALUE;
        for (String c : candidates) {
            int d = distance(word, c);
            if (d < bestDistance) {
                best = c;
                bestDistance = d;
            }
        }
        boolean close = bestDistance <= MAX_DISTANCE && bestDistance < word.length();
        return close ? Optional.of(best) : Optional.empty();
    }

    /** " (did you mean x?)", or nothing. */
    static String hint(String word, Collection<String> candidates) {
        return closest(word, candidates).map(s -> " (did you mean " + s + "?)").orElse("");
    }

    static int distance(String a, String b) {
        int[] prev = new int[b.length() + 1];
        int[] cur = new int[b.length() + 1];
        for (int j = 0; j <= b.length(); j++) {
            prev[j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            cur[0] = i;
            for (int j = 1; j <= b.length(); j++) {
                int substitution = prev[j - 1] + (a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1);
                cur[j] = Math.min(substitution, Math.min(prev[j], cur[j - 1]) + 1);
            }
            int[] t = prev;
            prev = cur;
            cur = t;
        }
        return prev[b.length()];
    }
}
