file(REMOVE_RECURSE
  "CMakeFiles/test-tokens.dir/test-tokens.c.o"
  "CMakeFiles/test-tokens.dir/test-tokens.c.o.d"
  "test-tokens"
  "test-tokens.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/test-tokens.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
