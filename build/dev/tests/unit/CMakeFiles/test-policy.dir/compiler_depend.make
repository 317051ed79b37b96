# Empty compiler generated dependencies file for test-policy.
# This may be replaced when dependencies are built.
