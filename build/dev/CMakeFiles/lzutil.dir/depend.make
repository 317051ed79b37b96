# Empty dependencies file for lzutil.
# This may be replaced when dependencies are built.
