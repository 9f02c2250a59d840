#include <zlib.h>

/// inflateInit2 is a macro, which Swift cannot call: 15 + 32 reads gzip and zlib headers alike.
static inline int report_inflate_init_gzip(z_stream *stream) {
    return inflateInit2(stream, 15 + 32);
}
