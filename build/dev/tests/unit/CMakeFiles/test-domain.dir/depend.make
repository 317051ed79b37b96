# Empty dependencies file for test-domain.
# This may be replaced when dependencies are built.
