# CMake generated Testfile for 
# Source directory: /work/main/tests/unit
# Build directory: /work/main/build/dev/tests/unit
# 
# This file includes the relevant testing commands required for 
# testing this directory and lists subdirectories to be tested as well.
add_test([=[test-cidr]=] "/work/main/build/dev/tests/unit/test-cidr")
set_tests_properties([=[test-cidr]=] PROPERTIES  ENVIRONMENT "LZ_TEST_DATA=/work/main/tests/unit/data" _BACKTRACE_TRIPLES "/work/main/tests/unit/CMakeLists.txt;10;add_test;/work/main/tests/unit/CMakeLists.txt;0;")
add_test([=[test-config]=] "/work/main/build/dev/tests/unit/test-config")
set_tests_properties([=[test-config]=] PROPERTIES  ENVIRONMENT "LZ_TEST_DATA=/work/main/tests/unit/data" _BACKTRACE_TRIPLES "/work/main/tests/unit/CMakeLists.txt;10;add_test;/work/main/tests/unit/CMakeLists.txt;0;")
add_test([=[test-domain]=] "/work/main/build/dev/tests/unit/test-domain")
set_tests_properties([=[test-domain]=] PROPERTIES  ENVIRONMENT "LZ_TEST_DATA=/work/main/tests/unit/data" _BACKTRACE_TRIPLES "/work/main/tests/unit/CMakeLists.txt;10;add_test;/work/main/tests/unit/CMakeLists.txt;0;")
add_test([=[test-fingerprint]=] "/work/main/build/dev/tests/unit/test-fingerprint")
set_tests_properties([=[test-fingerprint]=] PROPERTIES  ENVIRONMENT "LZ_TEST_DATA=/work/main/tests/unit/data" _BACKTRACE_TRIPLES "/work/main/tests/unit/CMakeLists.txt;10;add_test;/work/main/tests/unit/CMakeLists.txt;0;")
add_test([=[test-policy]=] "/work/main/build/dev/tests/unit/test-policy")
set_tests_properties([=[test-policy]=] PROPERTIES  ENVIRONMENT "LZ_TEST_DATA=/work/main/tests/unit/data" _BACKTRACE_TRIPLES "/work/main/tests/unit/CMakeLists.txt;10;add_test;/work/main/tests/unit/CMakeLists.txt;0;")
add_test([=[test-rules]=] "/work/main/build/dev/tests/unit/test-rules")
set_tests_properties([=[test-rules]=] PROPERTIES  ENVIRONMENT "LZ_TEST_DATA=/work/main/tests/unit/data" _BACKTRACE_TRIPLES "/work/main/tests/unit/CMakeLists.txt;10;add_test;/work/main/tests/unit/CMakeLists.txt;0;")
add_test([=[test-rundir]=] "/work/main/build/dev/tests/unit/test-rundir")
set_tests_properties([=[test-rundir]=] PROPERTIES  ENVIRONMENT "LZ_TEST_DATA=/work/main/tests/unit/data" _BACKTRACE_TRIPLES "/work/main/tests/unit/CMakeLists.txt;10;add_test;/work/main/tests/unit/CMakeLists.txt;0;")
add_test([=[test-runsc-argv]=] "/work/main/build/dev/tests/unit/test-runsc-argv")
set_tests_properties([=[test-runsc-argv]=] PROPERTIES  ENVIRONMENT "LZ_TEST_DATA=/work/main/tests/unit/data" _BACKTRACE_TRIPLES "/work/main/tests/unit/CMakeLists.txt;10;add_test;/work/main/tests/unit/CMakeLists.txt;0;")
add_test([=[test-spawn]=] "/work/main/build/dev/tests/unit/test-spawn")
set_tests_properties([=[test-spawn]=] PROPERTIES  ENVIRONMENT "LZ_TEST_DATA=/work/main/tests/unit/data" _BACKTRACE_TRIPLES "/work/main/tests/unit/CMakeLists.txt;10;add_test;/work/main/tests/unit/CMakeLists.txt;0;")
add_test([=[test-tokens]=] "/work/main/build/dev/tests/unit/test-tokens")
set_tests_properties([=[test-tokens]=] PROPERTIES  ENVIRONMENT "LZ_TEST_DATA=/work/main/tests/unit/data" _BACKTRACE_TRIPLES "/work/main/tests/unit/CMakeLists.txt;10;add_test;/work/main/tests/unit/CMakeLists.txt;0;")
