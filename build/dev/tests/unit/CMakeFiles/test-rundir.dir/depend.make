# Empty dependencies file for test-rundir.
# This may be replaced when dependencies are built.
