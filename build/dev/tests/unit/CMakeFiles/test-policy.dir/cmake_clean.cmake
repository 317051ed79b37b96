file(REMOVE_RECURSE
  "CMakeFiles/test-policy.dir/test-policy.c.o"
  "CMakeFiles/test-policy.dir/test-policy.c.o.d"
  "test-policy"
  "test-policy.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/test-policy.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
