
# Consider dependencies only in project.
set(CMAKE_DEPENDS_IN_PROJECT_ONLY OFF)

# The set of languages for which implicit dependencies are needed:
set(CMAKE_DEPENDS_LANGUAGES
  )

# The set of dependency files which are needed:
set(CMAKE_DEPENDS_DEPENDENCY_FILES
  "/work/main/src/client-setup.c" "CMakeFiles/lazaret.dir/src/client-setup.c.o" "gcc" "CMakeFiles/lazaret.dir/src/client-setup.c.o.d"
  "/work/main/src/cmd-doctor.c" "CMakeFiles/lazaret.dir/src/cmd-doctor.c.o" "gcc" "CMakeFiles/lazaret.dir/src/cmd-doctor.c.o.d"
  "/work/main/src/cmd-domain.c" "CMakeFiles/lazaret.dir/src/cmd-domain.c.o" "gcc" "CMakeFiles/lazaret.dir/src/cmd-domain.c.o.d"
  "/work/main/src/cmd-profile.c" "CMakeFiles/lazaret.dir/src/cmd-profile.c.o" "gcc" "CMakeFiles/lazaret.dir/src/cmd-profile.c.o.d"
  "/work/main/src/cmd-run.c" "CMakeFiles/lazaret.dir/src/cmd-run.c.o" "gcc" "CMakeFiles/lazaret.dir/src/cmd-run.c.o.d"
  "/work/main/src/doctor-host.c" "CMakeFiles/lazaret.dir/src/doctor-host.c.o" "gcc" "CMakeFiles/lazaret.dir/src/doctor-host.c.o.d"
  "/work/main/src/doctor-podman.c" "CMakeFiles/lazaret.dir/src/doctor-podman.c.o" "gcc" "CMakeFiles/lazaret.dir/src/doctor-podman.c.o.d"
  "/work/main/src/doctor-run.c" "CMakeFiles/lazaret.dir/src/doctor-run.c.o" "gcc" "CMakeFiles/lazaret.dir/src/doctor-run.c.o.d"
  "/work/main/src/doctor-tools.c" "CMakeFiles/lazaret.dir/src/doctor-tools.c.o" "gcc" "CMakeFiles/lazaret.dir/src/doctor-tools.c.o.d"
  "/work/main/src/lazaret.c" "CMakeFiles/lazaret.dir/src/lazaret.c.o" "gcc" "CMakeFiles/lazaret.dir/src/lazaret.c.o.d"
  "/work/main/src/out-domain.c" "CMakeFiles/lazaret.dir/src/out-domain.c.o" "gcc" "CMakeFiles/lazaret.dir/src/out-domain.c.o.d"
  "/work/main/src/out-profile.c" "CMakeFiles/lazaret.dir/src/out-profile.c.o" "gcc" "CMakeFiles/lazaret.dir/src/out-profile.c.o.d"
  )

# Targets to which this target links.
set(CMAKE_TARGET_LINKED_INFO_FILES
  "/work/main/build/dev/CMakeFiles/lzcore.dir/DependInfo.cmake"
  "/work/main/build/dev/CMakeFiles/lzutil.dir/DependInfo.cmake"
  )

# Fortran module output directory.
set(CMAKE_Fortran_TARGET_MODULE_DIR "")
