file(REMOVE_RECURSE
  "CMakeFiles/test-fingerprint.dir/test-fingerprint.c.o"
  "CMakeFiles/test-fingerprint.dir/test-fingerprint.c.o.d"
  "test-fingerprint"
  "test-fingerprint.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/test-fingerprint.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
