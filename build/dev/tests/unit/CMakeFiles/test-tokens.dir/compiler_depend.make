# Empty compiler generated dependencies file for test-tokens.
# This may be replaced when dependencies are built.
