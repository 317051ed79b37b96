/*
 * fault.h: fault points of a test build (OR-5). A test build (cmake
 * -DLZ_FAULTS=ON, the default of the sanitizer tree) compiles
 * lz_fault(NAME) into a check of the environment: when
 * LAZARET_TEST_FAULT names the point, the process sends itself SIGKILL
 * there, as a crash or "kill -9" would at that instant. tests/integration
 * runs a State Anchor reset once per point and checks what it left. Any
 * other build compiles the points away, so no environment variable can
 * reach them in a release.
 *
 * Point names are "<operation>-<step>"; lz_fault_names lists them, so a
 * test can loop over every point and a point left out of the list is a
 * bug the unit test finds.
 */
#ifndef LZ_FAULT_H
#define LZ_FAULT_H

#define LZ_FAULT_ENV "LAZARET_TEST_FAULT"

/* Every fault point, NULL-terminated (in a release too: for --help). */
extern const char *const lz_fault_names[];

#ifdef LZ_FAULTS
/* Kills the process with SIGKILL when $LAZARET_TEST_FAULT is name. */
void lz_fault(const char *name);
#else
#define lz_fault(name) ((void)(name))
#endif

#endif
