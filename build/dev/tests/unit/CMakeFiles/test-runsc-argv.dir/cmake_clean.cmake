file(REMOVE_RECURSE
  "CMakeFiles/test-runsc-argv.dir/test-runsc-argv.c.o"
  "CMakeFiles/test-runsc-argv.dir/test-runsc-argv.c.o.d"
  "test-runsc-argv"
  "test-runsc-argv.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/test-runsc-argv.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
