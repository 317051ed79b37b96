# Empty compiler generated dependencies file for lazaret.
# This may be replaced when dependencies are built.
