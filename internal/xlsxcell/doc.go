// Package xlsxcell reads the cells of .xlsx workbooks as typed values: text,
// numbers, booleans, errors, and dates and times where the cell's own number
// format shows a date or time (built-in format ids, custom codes), on the
// workbook's date system (1900 or 1904). It streams a sheet's rows from the
// zip without loading the sheet, and knows worksheets from chart, dialog and
// macro sheets. data_processor and format_converter both read workbooks
// through it, so a cell reads the same in both.
//
// It does not evaluate formulas (it reads their cached values), apply number
// formats beyond date-ness (3.14 shown as "3.1" stays 3.14), or write
// workbooks (excelize does that).
package xlsxcell
