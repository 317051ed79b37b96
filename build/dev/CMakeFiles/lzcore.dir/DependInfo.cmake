
# Consider dependencies only in project.
set(CMAKE_DEPENDS_IN_PROJECT_ONLY OFF)

# The set of languages for which implicit dependencies are needed:
set(CMAKE_DEPENDS_LANGUAGES
  )

# The set of dependency files which are needed:
set(CMAKE_DEPENDS_DEPENDENCY_FILES
  "/work/main/core/cidr.c" "CMakeFiles/lzcore.dir/core/cidr.c.o" "gcc" "CMakeFiles/lzcore.dir/core/cidr.c.o.d"
  "/work/main/core/config.c" "CMakeFiles/lzcore.dir/core/config.c.o" "gcc" "CMakeFiles/lzcore.dir/core/config.c.o.d"
  "/work/main/core/domain.c" "CMakeFiles/lzcore.dir/core/domain.c.o" "gcc" "CMakeFiles/lzcore.dir/core/domain.c.o.d"
  "/work/main/core/fingerprint.c" "CMakeFiles/lzcore.dir/core/fingerprint.c.o" "gcc" "CMakeFiles/lzcore.dir/core/fingerprint.c.o.d"
  "/work/main/core/ini.c" "CMakeFiles/lzcore.dir/core/ini.c.o" "gcc" "CMakeFiles/lzcore.dir/core/ini.c.o.d"
  "/work/main/core/mountplan.c" "CMakeFiles/lzcore.dir/core/mountplan.c.o" "gcc" "CMakeFiles/lzcore.dir/core/mountplan.c.o.d"
  "/work/main/core/pathcheck.c" "CMakeFiles/lzcore.dir/core/pathcheck.c.o" "gcc" "CMakeFiles/lzcore.dir/core/pathcheck.c.o.d"
  "/work/main/core/policy.c" "CMakeFiles/lzcore.dir/core/policy.c.o" "gcc" "CMakeFiles/lzcore.dir/core/policy.c.o.d"
  "/work/main/core/profile.c" "CMakeFiles/lzcore.dir/core/profile.c.o" "gcc" "CMakeFiles/lzcore.dir/core/profile.c.o.d"
  "/work/main/core/rules.c" "CMakeFiles/lzcore.dir/core/rules.c.o" "gcc" "CMakeFiles/lzcore.dir/core/rules.c.o.d"
  "/work/main/core/rundir.c" "CMakeFiles/lzcore.dir/core/rundir.c.o" "gcc" "CMakeFiles/lzcore.dir/core/rundir.c.o.d"
  "/work/main/core/runsc-argv.c" "CMakeFiles/lzcore.dir/core/runsc-argv.c.o" "gcc" "CMakeFiles/lzcore.dir/core/runsc-argv.c.o.d"
  "/work/main/core/spawn.c" "CMakeFiles/lzcore.dir/core/spawn.c.o" "gcc" "CMakeFiles/lzcore.dir/core/spawn.c.o.d"
  "/work/main/core/tokens.c" "CMakeFiles/lzcore.dir/core/tokens.c.o" "gcc" "CMakeFiles/lzcore.dir/core/tokens.c.o.d"
  )

# Targets to which this target links.
set(CMAKE_TARGET_LINKED_INFO_FILES
  "/work/main/build/dev/CMakeFiles/lzutil.dir/DependInfo.cmake"
  )

# Fortran module output directory.
set(CMAKE_Fortran_TARGET_MODULE_DIR "")
