# Empty compiler generated dependencies file for lazaret-runsc.
# This may be replaced when dependencies are built.
