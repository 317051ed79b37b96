file(REMOVE_RECURSE
  "CMakeFiles/test-rundir.dir/test-rundir.c.o"
  "CMakeFiles/test-rundir.dir/test-rundir.c.o.d"
  "test-rundir"
  "test-rundir.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/test-rundir.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
