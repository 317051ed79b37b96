# Empty dependencies file for test-runsc-argv.
# This may be replaced when dependencies are built.
