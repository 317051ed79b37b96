file(REMOVE_RECURSE
  "CMakeFiles/test-domain.dir/test-domain.c.o"
  "CMakeFiles/test-domain.dir/test-domain.c.o.d"
  "test-domain"
  "test-domain.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/test-domain.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
