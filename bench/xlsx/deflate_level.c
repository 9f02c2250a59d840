/* A benchmark aid, not part of the product: forces the zlib level that libxlsxwriter 1.1.4
 * hands to minizip (it has no option of its own), to measure what a faster deflate would save.
 * docs/BENCHMARKS.md ("Nightly (item 5)") has the figures it gave.
 *
 *   gcc -shared -fPIC -O2 -o /tmp/deflate_level.so bench/xlsx/deflate_level.c -ldl
 *   ZLEVEL=1 LD_PRELOAD=/tmp/deflate_level.so report fleet --db DB --event EVENT --xlsx -o DIR
 *
 * Without ZLEVEL the library's own level is kept, so the same command times both. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdlib.h>

typedef void *zipFile;
typedef struct zip_fileinfo zip_fileinfo;
typedef int (*open_fn)(zipFile, const char *, const zip_fileinfo *, const void *, unsigned, const void *,
                       unsigned, const char *, int, int, int, int, int, int, const char *, unsigned long,
                       unsigned long, unsigned long, int);

int zipOpenNewFileInZip4_64(zipFile file, const char *name, const zip_fileinfo *info, const void *local_extra,
                            unsigned local_size, const void *global_extra, unsigned global_size,
                            const char *comment, int method, int level, int raw, int window_bits, int mem_level,
                            int strategy, const char *password, unsigned long crc, unsigned long version_made_by,
                            unsigned long flag_base, int zip64) {
    static open_fn real;
    if (!real) real = (open_fn)dlsym(RTLD_NEXT, "zipOpenNewFileInZip4_64");
    const char *forced = getenv("ZLEVEL");
    return real(file, name, info, local_extra, local_size, global_extra, global_size, comment, method,
                forced ? atoi(forced) : level, raw, window_bits, mem_level, strategy, password, crc,
                version_made_by, flag_base, zip64);
}
