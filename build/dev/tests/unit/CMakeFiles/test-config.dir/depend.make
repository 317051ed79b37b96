# Empty dependencies file for test-config.
# This may be replaced when dependencies are built.
