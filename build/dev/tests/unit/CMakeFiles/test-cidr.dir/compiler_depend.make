# Empty compiler generated dependencies file for test-cidr.
# This may be replaced when dependencies are built.
