# CMake generated Testfile for 
# Source directory: /work/main/tests/unit
# Build directory: /work/main/build/dev/tests/unit
# 
# This file includes the relevant testing commands required for 
# testing this directory and lists subdirectories to be tested as well.
add_test([=[test-runsc-argv]=] "/work/main/build/dev/tests/unit/test-runsc-argv")
set_tests_properties([=[test-runsc-argv]=] PROPERTIES  ENVIRONMENT "LZ_TEST_DATA=/work/main/tests/unit/data" _BACKTRACE_TRIPLES "/work/main/tests/unit/CMakeLists.txt;10;add_test;/work/main/tests/unit/CMakeLists.txt;0;")
add_test([=[test-spawn]=] "/work/main/build/dev/tests/unit/test-spawn")
set_tests_properties([=[test-spawn]=] PROPERTIES  ENVIRONMENT "LZ_TEST_DATA=/work/main/tests/unit/data" _BACKTRACE_TRIPLES "/work/main/tests/unit/CMakeLists.txt;10;add_test;/work/main/tests/unit/CMakeLists.txt;0;")
