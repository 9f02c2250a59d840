#include <xlsxwriter.h>
#include <stdio.h>

/// libxlsxwriter prints its [ERROR] lines to C's `stderr` as well as returning an error code; the
/// tool prints one clear line of its own instead. Swaps the stream the library writes to (glibc's
/// `stderr` is an assignable variable) and returns the previous one, to be put back afterwards.
static inline FILE *report_lxw_swap_stderr(FILE *replacement) {
    FILE *previous = stderr;
    stderr = replacement;
    return previous;
}
