/* nccl-tests' result rows printed in pieces between NCCL's own log lines. */
#ifndef LS_IMPORT_NCCL_ROW_PIECES_H
#define LS_IMPORT_NCCL_ROW_PIECES_H

#include <stddef.h>

/* With NCCL_DEBUG=INFO and NCCL_DEBUG_SUBSYS=COLL (or ALL), NCCL prints a line for every
   call while nccl-tests prints a result row without a newline between its parts, so the
   row comes in pieces, each glued to the front of a log line:
       "  8388608  2097152  float  sum  -1mew0:65704:65704 [1] NCCL INFO AllReduce: ..."
       "    314.7   26.66   26.66      0mew0:65704:65704 [1] NCCL INFO AllReduce: ..."
   and its last piece on a line of its own ("    310.8   26.99   26.99      0").
   When line starts with such a piece (a number, then more, then NCCL's "host:pid:tid
   [dev] NCCL " prefix glued to the last one), the piece is appended to pending (size
   len) and line is left holding the log line alone: returns 1. Else 0, nothing changed.
   A host whose name starts with a digit cannot be told from the piece's last number:
   such a line is left as it is. */
int ls_row_piece_split(char *line, char *pending, size_t len);

/* 1 when line holds a row's first piece glued to NCCL's log line (its words not all
   numbers: the size and count, then the type and the reduction, "float sum"), 0 for a
   later piece (numbers only) or no piece. A first piece while a row is gathered means
   that row lost its last piece: it is read as it is, never joined to the next row. */
int ls_row_piece_starts_row(const char *line);

/* Where NCCL's log line begins in line when a row piece is glued in front of it (as
   above), else NULL: NCCL's log readers take the host from there, not "-1mew0". */
const char *ls_row_piece_log_start(const char *line);

/* 1 when line holds only numbers (a row's last piece: time, algbw, busbw, #wrong; at
   most two groups of them), nothing else. */
int ls_row_piece_tail(const char *line);

#endif
