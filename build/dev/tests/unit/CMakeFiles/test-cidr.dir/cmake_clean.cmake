file(REMOVE_RECURSE
  "CMakeFiles/test-cidr.dir/test-cidr.c.o"
  "CMakeFiles/test-cidr.dir/test-cidr.c.o.d"
  "test-cidr"
  "test-cidr.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/test-cidr.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
