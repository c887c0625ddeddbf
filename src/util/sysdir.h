/* Listing sysfs folders named PREFIX + number ("node0", "node1" ...). */
#ifndef LS_UTIL_SYSDIR_H
#define LS_UTIL_SYSDIR_H

/* The numbers N of the entries PREFIX N under root + path (root NULL or "" for "/"),
   0 <= N < limit, ascending, at most max of them; returns the count (0 when the folder
   is not there). Names with anything after the number are not counted. */
int ls_list_numbered(const char *root, const char *path, const char *prefix, int *ids, int max,
                     long limit);

#endif
