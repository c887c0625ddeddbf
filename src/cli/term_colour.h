/* Colour for a terminal: the report's bytes stay plain; on a terminal, and unless
   NO_COLOR is set (no-color.org), the verdict line and the severity words get ANSI
   colours. */
#ifndef LS_CLI_TERM_COLOUR_H
#define LS_CLI_TERM_COLOUR_H

#include <stdio.h>

/* Whether output to f may be coloured. */
int ls_colour_wanted(FILE *f);
/* text coloured when ls_colour_wanted(f), else text itself; takes text over, caller
   frees the result. */
char *ls_term_colour(char *text, FILE *f);
/* The same, whatever the output (tests). */
char *ls_term_colour_force(char *text);

#endif
