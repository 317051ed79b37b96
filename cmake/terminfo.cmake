# terminfo.cmake: Lazaret's own terminfo entry (termdb/lazaret.ti, DESIGN.md
# "Terminals"), compiled with tic at build time into <build>/terminfo, next
# to the lazaret binary, and installed into share/lazaret/terminfo. Both
# places are where lz_termdb_lazaret_entry (termdb/termdb.h) looks, relative
# to the running executable. At build time rather than at run time: a bad
# entry fails the build, the tests read the very file that is installed,
# and the coordinator never has to run tic.
find_program(LZ_TIC tic REQUIRED)
set(LZ_TERMINFO_DIR ${CMAKE_BINARY_DIR}/terminfo)
set(LZ_TERMINFO_ENTRY ${LZ_TERMINFO_DIR}/l/lazaret)
# -x keeps the extended capabilities (Tc, Ss, setrgbf, BE, ...); -o never
# lets tic write into $TERMINFO or ~/.terminfo. The old entry goes first:
# tic would otherwise keep it when a run fails half-way.
add_custom_command(OUTPUT ${LZ_TERMINFO_ENTRY}
	COMMAND ${CMAKE_COMMAND} -E rm -f ${LZ_TERMINFO_ENTRY}
	COMMAND ${CMAKE_COMMAND} -E make_directory ${LZ_TERMINFO_DIR}
	COMMAND ${LZ_TIC} -x -o ${LZ_TERMINFO_DIR}
		${CMAKE_SOURCE_DIR}/termdb/lazaret.ti
	DEPENDS ${CMAKE_SOURCE_DIR}/termdb/lazaret.ti
	COMMENT "Compiling the lazaret terminfo entry"
	VERBATIM)
add_custom_target(lazaret-terminfo ALL DEPENDS ${LZ_TERMINFO_ENTRY})
install(FILES ${LZ_TERMINFO_ENTRY} DESTINATION share/lazaret/terminfo/l)
