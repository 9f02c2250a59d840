/*
 * reference.c: the XLSX benchmark written straight with libxlsxwriter, as the floor that
 * ReportCore's XLSXWriter is measured against (bench/xlsx/run.sh).
 *
 *   reference [ROWS] [OUTPUT.xlsx]      (defaults: 1000000, bench-c.xlsx)
 *
 * Same data, formats and sheet features as bench/Sources/report-bench/main.swift: one sheet of
 * ROWS x 8 columns (text, integers, decimals, timestamps, percentages, euros) in constant-memory
 * mode, bold frozen header, autofilter, a data bar; plus a small Summary sheet as the Swift
 * writer makes.
 */
#include <stdio.h>
#include <stdlib.h>
#include <xlsxwriter.h>

#define CHECK(call) do { lxw_error e_ = (call); if (e_ != LXW_NO_ERROR) { \
    fprintf(stderr, "reference: %s: %s\n", #call, lxw_strerror(e_)); return 1; } } while (0)

static const long long first_check_out = 1475301600LL; /* 2016-10-01T08:00:00+02:00 */
static const char *groups[] = {"Premium", "Sport", "Electric", "Utility", "Classic"};
static const char *headers[] = {"Plate", "Loan", "Hours", "Out at", "Utilization", "Group", "Km", "Revenue eur"};

int main(int argc, char **argv) {
    long rows = argc > 1 ? atol(argv[1]) : 1000000;
    const char *path = argc > 2 ? argv[2] : "bench-c.xlsx";
    lxw_workbook_options options = {.constant_memory = LXW_TRUE, .tmpdir = ".", .use_zip64 = LXW_FALSE};
    lxw_workbook *workbook = workbook_new_opt(path, &options);
    if (!workbook) return 1;
    lxw_worksheet *summary = workbook_add_worksheet(workbook, "Summary");
    lxw_worksheet *sheet = workbook_add_worksheet(workbook, "Loans");
    lxw_format *bold = workbook_add_format(workbook);
    format_set_bold(bold);
    lxw_format *integer = workbook_add_format(workbook);
    format_set_num_format(integer, "0");
    lxw_format *hours = workbook_add_format(workbook);
    format_set_num_format(hours, "0.00");
    lxw_format *stamp = workbook_add_format(workbook);
    format_set_num_format(stamp, "yyyy-mm-dd hh:mm");
    lxw_format *percent = workbook_add_format(workbook);
    format_set_num_format(percent, "0.0%");
    lxw_format *euros = workbook_add_format(workbook);
    format_set_num_format(euros, "#,##0.00 \xE2\x82\xAC");

    double widths[] = {10, 9, 8, 18, 14, 10, 6, 14};
    for (lxw_col_t c = 0; c < 8; c++) CHECK(worksheet_set_column(sheet, c, c, widths[c], NULL));
    for (lxw_col_t c = 0; c < 8; c++) CHECK(worksheet_write_string(sheet, 0, c, headers[c], bold));
    worksheet_freeze_panes(sheet, 1, 0);

    char plate[16];
    for (long i = 0; i < rows; i++) {
        lxw_row_t r = (lxw_row_t)(i + 1);
        snprintf(plate, sizeof plate, "P-%06ld", i % 50000);
        long long local = first_check_out + i * 37 + 7200;
        double serial = (double)local / 86400.0 + 25569.0;
        CHECK(worksheet_write_string(sheet, r, 0, plate, NULL));
        CHECK(worksheet_write_number(sheet, r, 1, (double)i, integer));
        CHECK(worksheet_write_number(sheet, r, 2, (double)(i % 1000) / 8, hours));
        CHECK(worksheet_write_number(sheet, r, 3, serial, stamp));
        CHECK(worksheet_write_number(sheet, r, 4, (double)(i % 997) / 997, percent));
        CHECK(worksheet_write_string(sheet, r, 5, groups[i % 5], NULL));
        CHECK(worksheet_write_number(sheet, r, 6, (double)(i * 7919 % 1000), integer));
        CHECK(worksheet_write_number(sheet, r, 7, (double)(i % 10000) * 0.25, euros));
    }
    CHECK(worksheet_autofilter(sheet, 0, 0, (lxw_row_t)rows, 7));
    lxw_conditional_format bar = {.type = LXW_CONDITIONAL_DATA_BAR};
    if (rows > 0) CHECK(worksheet_conditional_format_range(sheet, 1, 4, (lxw_row_t)rows, 4, &bar));
    CHECK(worksheet_write_string(summary, 0, 0, "XLSX benchmark", bold));
    CHECK(workbook_close(workbook));
    return 0;
}
