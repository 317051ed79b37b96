file(REMOVE_RECURSE
  "liblzutil.a"
)
