/* The width terminal text is laid out in: COLUMNS when it is a positive number, else
   the terminal's own width when stdout is one, else 100 (a pipe, a file), so a saved
   report does not depend on the window it was made in. */
#include "strbuf.h"

#include <stdlib.h>
#include <sys/ioctl.h>
#include <unistd.h>

/* Below MIN_WIDTH a table would be all wrap; MAX_WIDTH bounds a stray COLUMNS. */
enum { DEFAULT_WIDTH = 100, MIN_WIDTH = 60, MAX_WIDTH = 400 };

int ls_term_width(void)
{
    const char *env = getenv("COLUMNS");
    char *end = NULL;
    long w = env && *env ? strtol(env, &end, 10) : 0;
    if (!(end && *end == '\0' && w > 0)) {
        struct winsize ws = {0};
        int tty = isatty(STDOUT_FILENO) && ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 &&
                  ws.ws_col > 0;
        w = tty ? ws.ws_col : DEFAULT_WIDTH;
    }
    return w < MIN_WIDTH ? MIN_WIDTH : w > MAX_WIDTH ? MAX_WIDTH : (int)w;
}
