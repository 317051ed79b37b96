file(REMOVE_RECURSE
  "CMakeFiles/test-rules.dir/test-rules.c.o"
  "CMakeFiles/test-rules.dir/test-rules.c.o.d"
  "test-rules"
  "test-rules.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/test-rules.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
