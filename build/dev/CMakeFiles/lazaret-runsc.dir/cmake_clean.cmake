file(REMOVE_RECURSE
  "CMakeFiles/lazaret-runsc.dir/src/lazaret-runsc.c.o"
  "CMakeFiles/lazaret-runsc.dir/src/lazaret-runsc.c.o.d"
  "lazaret-runsc"
  "lazaret-runsc.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/lazaret-runsc.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
