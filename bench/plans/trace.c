// LD_PRELOAD wrapper of sqlite3_prepare_v3 for bench/plans/run.sh: appends every statement a
// process prepares to the file named by SQL_TRACE, each followed by a line ";;;;".
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
typedef struct sqlite3 sqlite3; typedef struct sqlite3_stmt sqlite3_stmt;
int sqlite3_prepare_v3(sqlite3 *db, const char *sql, int n, unsigned int flags, sqlite3_stmt **st, const char **tail) {
    static int (*real)(sqlite3*, const char*, int, unsigned int, sqlite3_stmt**, const char**);
    if (!real) real = dlsym(RTLD_NEXT, "sqlite3_prepare_v3");
    const char *path = getenv("SQL_TRACE");
    if (path) { FILE *f = fopen(path, "a"); if (f) { fprintf(f, "%s\n;;;;\n", sql); fclose(f); } }
    return real(db, sql, n, flags, st, tail);
}
