file(REMOVE_RECURSE
  "liblzcore.a"
)
