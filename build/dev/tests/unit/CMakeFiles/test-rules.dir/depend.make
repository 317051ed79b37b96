# Empty dependencies file for test-rules.
# This may be replaced when dependencies are built.
