file(REMOVE_RECURSE
  "CMakeFiles/test-spawn.dir/test-spawn.c.o"
  "CMakeFiles/test-spawn.dir/test-spawn.c.o.d"
  "test-spawn"
  "test-spawn.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/test-spawn.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
