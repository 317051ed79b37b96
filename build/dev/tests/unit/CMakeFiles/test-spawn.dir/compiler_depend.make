# Empty compiler generated dependencies file for test-spawn.
# This may be replaced when dependencies are built.
