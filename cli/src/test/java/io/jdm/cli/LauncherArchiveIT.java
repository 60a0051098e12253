package io.jdm.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jdm.embedded.ServerPair;
import io.jdm.embedded.TestServers;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.jar.Attributes;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The launcher ({@code ./jdm}) keeps a class-data sharing archive only of a run that did its work:
 * a {@code --help} or a run refused at its task file would leave an archive of a fraction of the
 * classes that every later run of that command would start from. Runs the real script, as a user
 * does, beside a jar of this build's classes.
 */
class LauncherArchiveIT {
    @TempDir
    Path home;

    /**
     * {@code home/jdm} and the jar it starts, {@code home/cli/target/jdm.jar}: this build's classes
     * (jarred: class-data sharing takes no directories) and the test's class path, named in its
     * manifest, with {@link Jdm} as its main class.
     */
    private Path launcher() throws IOException {
        Path script = home.resolve("jdm");
        Files.copy(Path.of("..", "jdm"), script);
        Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rwxr-xr-x"));
        Path lib = Files.createDirectories(home.resolve("lib"));
        List<String> classPath = new ArrayList<>();
        for (String entry : System.getProperty("java.class.path").split(java.io.File.pathSeparator)) {
            Path p = Path.of(entry).toAbsolutePath();
            if (Files.isDirectory(p)) {
                Path jar = lib.resolve(classPath.size() + ".jar");
                jarOf(p, jar);
                p = jar;
            }
            if (Files.isRegularFile(p)) {
                classPath.add(p.toUri().toString());
            }
        }
        Manifest m = new Manifest();
        m.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
        m.getMainAttributes().put(Attributes.Name.MAIN_CLASS, Jdm.class.getName());
        m.getMainAttributes().put(Attributes.Name.CLASS_PATH, String.join(" ", classPath));
        Path jar = Files.createDirectories(home.resolve("cli/target")).resolve("jdm.jar");
        try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(jar), m)) {
            out.flush();
        }
        return script;
    }

    private static void jarOf(Path dir, Path jar) throws IOException {
        try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(jar));
             Stream<Path> files = Files.walk(dir)) {
            for (Path f : (Iterable<Path>) files.filter(Files::isRegularFile).sorted()::iterator) {
                out.putNextEntry(new JarEntry(dir.relativize(f).toString().replace('\\', '/')));
                Files.copy(f, out);
                out.closeEntry();
            }
        }
    }

    private record Ran(int code, String out) {
    }

    private Ran run(Path launcher, String... args) throws Exception {
        Path out = home.resolve("out.txt");
        List<String> cmd = new ArrayList<>(List.of(launcher.toString()));
        cmd.addAll(List.of(args));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(out.toFile()).start();
        assertTrue(p.waitFor(120, TimeUnit.SECONDS), "launcher did not finish");
        return new Ran(p.exitValue(), Files.readString(out));
    }

    private List<String> archives() throws IOException {
        Path cds = home.resolve("cli/target/cds");
        if (!Files.isDirectory(cds)) {
            return List.of();
        }
        try (Stream<Path> s = Files.list(cds)) {
            return s.map(p -> p.getFileName().toString()).sorted().toList();
        }
    }

    @Test
    void onlyARunThatDidItsWorkLeavesAnArchive() throws Exception {
        Path jdm = launcher();

        Ran help = run(jdm, "dump", "--help");
        assertEquals(0, help.code(), help.out());
        assertTrue(help.out().contains("Usage"), help.out());
        assertEquals(List.of(), archives(), "a --help leaves no archive");

        Ran refused = run(jdm, "dump", home.resolve("missing.yaml").toString());
        assertEquals(ExitCode.USAGE, refused.code(), refused.out());
        assertEquals(List.of(), archives(), "a run refused at its task file leaves no archive");

        ServerPair pair = TestServers.shared();
        pair.source().freshDatabase("launcher_db");
        pair.source().execute("CREATE TABLE launcher_db.t (id INT PRIMARY KEY, v VARCHAR(10))",
                "INSERT INTO launcher_db.t VALUES (1, 'a'), (2, 'b')");
        Path task = TestTasks.allMode(home, "launcher", "jdm_meta_launcher", pair.source(), pair.target(),
                "launcher_db");
        Ran dump = run(jdm, "dump", task.toString());
        assertEquals(0, dump.code(), dump.out());
        List<String> kept = archives();
        assertEquals(1, kept.size(), "the first dump that finished leaves its archive: " + kept);
        assertTrue(kept.get(0).startsWith("dump-") && kept.get(0).endsWith(".jsa"), kept.toString());

        Ran again = run(jdm, "dump", task.toString());
        assertEquals(0, again.code(), again.out());
        assertEquals(kept, archives(), "a later dump starts from the archive and writes none");
    }
}
