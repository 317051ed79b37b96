/*
 * termdb.h: finding and installing compiled terminfo entries, so a
 * sandbox session renders for the terminal it is shown on (DESIGN.md
 * "Terminals"). Reads the environment only through the getenv-like
 * function the caller passes; never prints.
 *
 * Search order (ncurses' own): $TERMINFO; $HOME/.terminfo; each element
 * of $TERMINFO_DIRS (colon-separated; an empty element stands for the
 * system directories); /etc/terminfo, /lib/terminfo, /usr/share/terminfo.
 * In each directory both layouts are tried: "x/xterm-256color" and the
 * hex one "78/xterm-256color". TERM values that are empty, longer than
 * LZ_TERMDB_NAME_MAX, start with '.' or hold '/' or a control character
 * are refused: they could name a path outside the database.
 */
#ifndef LZ_TERMDB_H
#define LZ_TERMDB_H

#include "core/util.h"

#define LZ_TERMDB_NAME_MAX 64
/* Lazaret's own entry: the TERM of a pane (termdb/lazaret.ti). */
#define LZ_TERMDB_LAZARET "lazaret"

/* LZ_EINVAL unless term is a safe entry name. */
int lz_termdb_check_name(const char *term, struct lz_err *err);
/*
 * Finds the compiled entry for term; *path is allocated for the caller.
 * LZ_ENOTFOUND names the directories searched.
 */
int lz_termdb_find(const char *term, const char *(*get)(const char *),
    char **path, struct lz_err *err);
/*
 * Copies the regular file src to dest_dir/<first char of term>/<term>,
 * mode 0644, through a temporary file and rename(2), so a reader never
 * sees half an entry. dest_dir and the letter directory are created 0755
 * when missing (the parent of dest_dir must exist).
 */
int lz_termdb_install(const char *src, const char *dest_dir,
    const char *term, struct lz_err *err);
/*
 * Finds the compiled "lazaret" entry that describes the pane emulator;
 * *path is allocated for the caller. Where: only in $LZ_TERMINFO_DIR when
 * get returns it non-empty (tests); else relative to exe, the running
 * binary (NULL: /proc/self/exe), first <prefix>/share/lazaret/terminfo for
 * an installed <prefix>/bin/lazaret, then <exe's dir>/terminfo for a
 * binary in its build tree (cmake/terminfo.cmake). Both layouts as above.
 * LZ_ENOTFOUND names the directories searched. The entry goes to a pane's
 * sandbox as a host entry does: TERM=LZ_TERMDB_LAZARET and this path as
 * the OPEN frame's "terminfo" (protocol/wire.md), which the coordinator
 * copies with lz_termdb_install.
 */
/* The process environment (getenv), as the get argument above. */
const char *lz_termdb_getenv(const char *name);

int lz_termdb_lazaret_entry(const char *exe, const char *(*get)(const char *),
    char **path, struct lz_err *err);

#endif
