#include <sqlite3.h>

/// sqlite3_config is variadic, which Swift cannot call: one wrapper per setting used.
/// Memory statistics take a global mutex on every allocation; the tool never reads them.
static inline int report_sqlite3_disable_memory_statistics(void) {
    return sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
}
