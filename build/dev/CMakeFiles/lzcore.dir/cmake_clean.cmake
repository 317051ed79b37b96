file(REMOVE_RECURSE
  "CMakeFiles/lzcore.dir/core/cidr.c.o"
  "CMakeFiles/lzcore.dir/core/cidr.c.o.d"
  "CMakeFiles/lzcore.dir/core/config.c.o"
  "CMakeFiles/lzcore.dir/core/config.c.o.d"
  "CMakeFiles/lzcore.dir/core/domain.c.o"
  "CMakeFiles/lzcore.dir/core/domain.c.o.d"
  "CMakeFiles/lzcore.dir/core/fingerprint.c.o"
  "CMakeFiles/lzcore.dir/core/fingerprint.c.o.d"
  "CMakeFiles/lzcore.dir/core/ini.c.o"
  "CMakeFiles/lzcore.dir/core/ini.c.o.d"
  "CMakeFiles/lzcore.dir/core/mountplan.c.o"
  "CMakeFiles/lzcore.dir/core/mountplan.c.o.d"
  "CMakeFiles/lzcore.dir/core/pathcheck.c.o"
  "CMakeFiles/lzcore.dir/core/pathcheck.c.o.d"
  "CMakeFiles/lzcore.dir/core/policy.c.o"
  "CMakeFiles/lzcore.dir/core/policy.c.o.d"
  "CMakeFiles/lzcore.dir/core/profile.c.o"
  "CMakeFiles/lzcore.dir/core/profile.c.o.d"
  "CMakeFiles/lzcore.dir/core/rules.c.o"
  "CMakeFiles/lzcore.dir/core/rules.c.o.d"
  "CMakeFiles/lzcore.dir/core/rundir.c.o"
  "CMakeFiles/lzcore.dir/core/rundir.c.o.d"
  "CMakeFiles/lzcore.dir/core/runsc-argv.c.o"
  "CMakeFiles/lzcore.dir/core/runsc-argv.c.o.d"
  "CMakeFiles/lzcore.dir/core/spawn.c.o"
  "CMakeFiles/lzcore.dir/core/spawn.c.o.d"
  "CMakeFiles/lzcore.dir/core/tokens.c.o"
  "CMakeFiles/lzcore.dir/core/tokens.c.o.d"
  "liblzcore.a"
  "liblzcore.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/lzcore.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
