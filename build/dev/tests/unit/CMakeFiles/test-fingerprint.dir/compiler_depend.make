# Empty compiler generated dependencies file for test-fingerprint.
# This may be replaced when dependencies are built.
