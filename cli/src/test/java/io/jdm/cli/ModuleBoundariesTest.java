package io.jdm.cli;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The build fails if the units import each other, common imports a unit (see docs/architecture.md), or two
 * packages import each other, however indirectly.
 */
class ModuleBoundariesTest {
    private static final JavaClasses CLASSES = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("io.jdm");

    /** The units: each depends on common alone; what passes between them is a file format or a value. */
    private static final List<String> UNITS = List.of("io.jdm.dump..", "io.jdm.load..", "io.jdm.sync..",
            "io.jdm.verify..");

    @Test
    void unitsDoNotImportEachOther() {
        for (String unit : UNITS) {
            String[] others = UNITS.stream().filter(u -> !u.equals(unit)).toArray(String[]::new);
            noClasses().that().resideInAPackage(unit)
                    .should().dependOnClassesThat().resideInAnyPackage(others)
                    .allowEmptyShould(true).check(CLASSES);
        }
    }

    @Test
    void verifyImportsNoOtherUnitNorTheCommandLine() {
        noClasses().that().resideInAPackage("io.jdm.verify..")
                .should().dependOnClassesThat()
                .resideInAnyPackage("io.jdm.dump..", "io.jdm.load..", "io.jdm.sync..", "io.jdm.bench..",
                        "io.jdm.cli..")
                .allowEmptyShould(true).check(CLASSES);
    }

    @Test
    void commonAndEmbeddedImportNoUnit() {
        noClasses().that().resideInAnyPackage("io.jdm.common..", "io.jdm.embedded..")
                .should().dependOnClassesThat()
                .resideInAnyPackage("io.jdm.dump..", "io.jdm.load..", "io.jdm.sync..", "io.jdm.verify..",
                        "io.jdm.bench..", "io.jdm.cli..")
                .allowEmptyShould(true).check(CLASSES);
    }

    @Test
    void unitsDoNotImportTheCommandLine() {
        noClasses().that().resideInAnyPackage("io.jdm.dump..", "io.jdm.load..", "io.jdm.sync..", "io.jdm.verify..",
                        "io.jdm.bench..")
                .should().dependOnClassesThat().resideInAPackage("io.jdm.cli..")
                .allowEmptyShould(true).check(CLASSES);
    }

    /**
     * No two packages depend on each other, directly or through others. A cycle (as config and
     * filter, schema and sql, a unit and its reader once had) means a type sits on the wrong side,
     * or the lower package needs a narrow interface of its own.
     */
    @Test
    void packagesAreFreeOfCycles() {
        slices().matching("io.jdm.(**)").should().beFreeOfCycles().check(CLASSES);
    }
}
