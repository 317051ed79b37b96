file(REMOVE_RECURSE
  "CMakeFiles/test-config.dir/test-config.c.o"
  "CMakeFiles/test-config.dir/test-config.c.o.d"
  "test-config"
  "test-config.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/test-config.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
