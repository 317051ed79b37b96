file(REMOVE_RECURSE
  "CMakeFiles/lzutil.dir/core/util.c.o"
  "CMakeFiles/lzutil.dir/core/util.c.o.d"
  "liblzutil.a"
  "liblzutil.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/lzutil.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
