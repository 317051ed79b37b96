# static-helpers.cmake: the programs that run inside containers with no
# libraries beside them, linked static and built without sanitizers (gcc
# refuses -static with -fsanitize=address). Included by CMakeLists.txt
# before the sanitizer and fuzzer flags are added, so none reach these
# targets. Their logic is in core/ and is unit-tested under the sanitizers.
#
# lazaret-netpolicy: the Network Sidecar's only program (DESIGN.md,
# "Network"). libc and the static libcrypto (SHA-256) only: no name
# lookups, so the linker's getaddrinfo/dlopen warnings must not appear.
find_library(LZ_LIBCRYPTO_STATIC NAMES libcrypto.a)
if(NOT LZ_LIBCRYPTO_STATIC)
	message(FATAL_ERROR "libcrypto.a not found (install libssl-dev): "
		"lazaret-netpolicy is linked static")
endif()
add_executable(lazaret-netpolicy src/lazaret-netpolicy.c core/netpolicy.c
	core/cidr.c core/hmac.c core/util.c)
target_include_directories(lazaret-netpolicy PRIVATE ${CMAKE_SOURCE_DIR})
target_compile_options(lazaret-netpolicy PRIVATE -O2)
target_link_options(lazaret-netpolicy PRIVATE -static -s)
target_link_libraries(lazaret-netpolicy PRIVATE ${LZ_LIBCRYPTO_STATIC})
install(TARGETS lazaret-netpolicy RUNTIME DESTINATION bin)

# lazaret-escalate: the Escalation Client, bound read-only into every
# sandbox (any image), so it may rely on nothing there. The mailbox record
# codec (protocol/), keys and MACs (core/) and the static jansson and
# libcrypto.
find_library(LZ_LIBJANSSON_STATIC NAMES libjansson.a)
if(NOT LZ_LIBJANSSON_STATIC)
	message(FATAL_ERROR "libjansson.a not found (install libjansson-dev): "
		"lazaret-escalate is linked static")
endif()
set(LZ_ESC_CLIENT_SOURCES core/esc-client.c core/ids.c protocol/mailbox.c
	protocol/jfield.c core/trust.c core/hmac.c core/util.c core/visible.c)
add_executable(lazaret-escalate src/lazaret-escalate.c
	${LZ_ESC_CLIENT_SOURCES})
target_include_directories(lazaret-escalate PRIVATE ${CMAKE_SOURCE_DIR})
target_compile_options(lazaret-escalate PRIVATE -O2)
target_link_options(lazaret-escalate PRIVATE -static -s)
target_link_libraries(lazaret-escalate PRIVATE ${LZ_LIBJANSSON_STATIC}
	${LZ_LIBCRYPTO_STATIC})
install(TARGETS lazaret-escalate RUNTIME DESTINATION bin)

# esc-forge: the tests' record forger inside the sandbox (tests only).
if(LZ_TESTS)
	add_executable(esc-forge tests/helpers/esc-forge.c
		${LZ_ESC_CLIENT_SOURCES})
	target_include_directories(esc-forge PRIVATE ${CMAKE_SOURCE_DIR})
	target_link_options(esc-forge PRIVATE -static)
	target_link_libraries(esc-forge PRIVATE ${LZ_LIBJANSSON_STATIC}
		${LZ_LIBCRYPTO_STATIC})
endif()
