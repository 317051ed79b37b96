# Empty dependencies file for lzcore.
# This may be replaced when dependencies are built.
