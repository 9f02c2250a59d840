#include <libpq-fe.h>

/// libpq prints server notices ("table ... does not exist, skipping") to stderr by default; the
/// tool's stderr is for one-line errors that cron mails, so notices are dropped.
static void report_pq_ignore_notice(void *argument, const char *message) {
    (void)argument;
    (void)message;
}

static inline void report_pq_silence_notices(PGconn *connection) {
    PQsetNoticeProcessor(connection, report_pq_ignore_notice, 0);
}
