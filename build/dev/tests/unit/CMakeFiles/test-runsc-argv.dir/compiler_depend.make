# Empty compiler generated dependencies file for test-runsc-argv.
# This may be replaced when dependencies are built.
