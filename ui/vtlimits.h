/*
 * vtlimits.h: what libvterm 0.1.4's parser (parser.c, vterm_internal.h)
 * keeps of a control sequence. Past CSI_ARGS_MAX it writes beyond its own
 * array of arguments (no bound check), so every byte a libvterm is given
 * stays within these: the program's (the pane's guard, ui/pane.c; the raw
 * session's filter, ui/vtfilter.c) and Lazaret's own (the pen that
 * lz_pane_sgr writes, ui/pane-snapshot.c).
 */
#ifndef LZ_VTLIMITS_H
#define LZ_VTLIMITS_H

/* CSI_ARGS_MAX: arguments of one CSI (a ':' separates two, as ';'). */
#define LZ_VT_CSI_ARGS_MAX 16
/* Digits of one argument passed on: more could overflow libvterm's long. */
#define LZ_VT_CSI_DIGIT_MAX 9
/* Leader and intermediate bytes kept: CSI_LEADER_MAX and INTERMED_MAX
 * less their terminating NUL. */
#define LZ_VT_CSI_BYTES_MAX 15

#endif
