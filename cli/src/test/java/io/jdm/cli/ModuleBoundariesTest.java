package io.jdm.cli;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

/** The build fails if the units import each other or common imports a unit (see DESIGN.md). */
class ModuleBoundariesTest {
    private static final JavaClasses CLASSES = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("io.jdm");

    @Test
    void unitsDoNotImportEachOther() {
        noClasses().that().resideInAPackage("io.jdm.dump..")
                .should().dependOnClassesThat().resideInAnyPackage("io.jdm.load..", "io.jdm.sync..")
                .allowEmptyShould(true).check(CLASSES);
        noClasses().that().resideInAPackage("io.jdm.load..")
                .should().dependOnClassesThat().resideInAnyPackage("io.jdm.dump..", "io.jdm.sync..")
                .allowEmptyShould(true).check(CLASSES);
        noClasses().that().resideInAPackage("io.jdm.sync..")
                .should().dependOnClassesThat().resideInAnyPackage("io.jdm.dump..", "io.jdm.load..")
                .allowEmptyShould(true).check(CLASSES);
    }

    @Test
    void commonAndEmbeddedImportNoUnit() {
        noClasses().that().resideInAnyPackage("io.jdm.common..", "io.jdm.embedded..")
                .should().dependOnClassesThat()
                .resideInAnyPackage("io.jdm.dump..", "io.jdm.load..", "io.jdm.sync..", "io.jdm.bench..",
                        "io.jdm.cli..")
                .allowEmptyShould(true).check(CLASSES);
    }

    @Test
    void unitsDoNotImportTheCommandLine() {
        noClasses().that().resideInAnyPackage("io.jdm.dump..", "io.jdm.load..", "io.jdm.sync..", "io.jdm.bench..")
                .should().dependOnClassesThat().resideInAPackage("io.jdm.cli..")
                .allowEmptyShould(true).check(CLASSES);
    }
}
