file(REMOVE_RECURSE
  "CMakeFiles/lazaret.dir/src/client-setup.c.o"
  "CMakeFiles/lazaret.dir/src/client-setup.c.o.d"
  "CMakeFiles/lazaret.dir/src/cmd-doctor.c.o"
  "CMakeFiles/lazaret.dir/src/cmd-doctor.c.o.d"
  "CMakeFiles/lazaret.dir/src/cmd-domain.c.o"
  "CMakeFiles/lazaret.dir/src/cmd-domain.c.o.d"
  "CMakeFiles/lazaret.dir/src/cmd-profile.c.o"
  "CMakeFiles/lazaret.dir/src/cmd-profile.c.o.d"
  "CMakeFiles/lazaret.dir/src/cmd-run.c.o"
  "CMakeFiles/lazaret.dir/src/cmd-run.c.o.d"
  "CMakeFiles/lazaret.dir/src/doctor-host.c.o"
  "CMakeFiles/lazaret.dir/src/doctor-host.c.o.d"
  "CMakeFiles/lazaret.dir/src/doctor-podman.c.o"
  "CMakeFiles/lazaret.dir/src/doctor-podman.c.o.d"
  "CMakeFiles/lazaret.dir/src/doctor-run.c.o"
  "CMakeFiles/lazaret.dir/src/doctor-run.c.o.d"
  "CMakeFiles/lazaret.dir/src/doctor-tools.c.o"
  "CMakeFiles/lazaret.dir/src/doctor-tools.c.o.d"
  "CMakeFiles/lazaret.dir/src/lazaret.c.o"
  "CMakeFiles/lazaret.dir/src/lazaret.c.o.d"
  "CMakeFiles/lazaret.dir/src/out-domain.c.o"
  "CMakeFiles/lazaret.dir/src/out-domain.c.o.d"
  "CMakeFiles/lazaret.dir/src/out-profile.c.o"
  "CMakeFiles/lazaret.dir/src/out-profile.c.o.d"
  "lazaret"
  "lazaret.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/lazaret.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
