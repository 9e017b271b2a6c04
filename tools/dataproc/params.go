package dataproc

import "github.com/clawbridge/clawbridge/tools/tool"

var (
	pPath  = tool.Param{Name: "path", Type: tool.String, Description: "Input table file."}
	pPaths = tool.Param{Name: "paths", Type: tool.Array, Items: &tool.Param{Name: "item", Type: tool.String},
		Description: "Input files, each a table named after the file."}
	pSheet     = tool.Param{Name: "sheet", Type: tool.String, Description: "Name or 1-based number."}
	pHeader    = tool.Param{Name: "header", Type: tool.Boolean, Description: "First row is one (default detected)."}
	pHeaderRow = tool.Param{Name: "header_row", Type: tool.Integer, Description: "1-based (default detected).", Min: tool.Ptr(1)}
	pOffset    = tool.Param{Name: "offset", Type: tool.Integer, Default: 0, Min: tool.Ptr(0)}
	pLimit     = tool.Param{Name: "limit", Type: tool.Integer, Default: 50, Min: tool.Ptr(1), Max: tool.Ptr(1000)}
	pColumns   = tool.Param{Name: "columns", Type: tool.Array, Items: &tool.Param{Name: "item", Type: tool.String}}
	pSQL       = tool.Param{Name: "sql", Type: tool.String, Description: "One SQLite SELECT or WITH over the tables; dates are ISO text."}
	pWhere     = tool.Param{Name: "where", Type: tool.Array, Description: "Conditions, e.g. [{\"column\":\"a\",\"op\":\">\",\"value\":1}].",
		Items: &tool.Param{Name: "item", Type: tool.Object, Properties: []tool.Param{
			{Name: "column", Type: tool.String, Required: true},
			{Name: "op", Type: tool.String, Enum: []string{"=", "!=", ">", ">=", "<", "<=", "contains", "not_contains", "starts_with", "ends_with", "in", "not_in", "between", "is_empty", "not_empty"}},
		}}}
	pMatch   = tool.Param{Name: "match", Type: tool.String, Default: "all", Enum: []string{"all", "any"}}
	pOrderBy = tool.Param{Name: "order_by", Type: tool.Array, Items: &tool.Param{Name: "item", Type: tool.String}, Description: "Sort keys, e.g. [\"amount desc\", \"name\"]."}
	pGroupBy = tool.Param{Name: "group_by", Type: tool.Array, Items: &tool.Param{Name: "item", Type: tool.String}, Description: "Columns; a date column may end :year, :quarter, :month, :week or :day."}
	pAggs    = tool.Param{Name: "aggregations", Type: tool.Array, Description: "Aggregates (default: count).",
		Items: &tool.Param{Name: "item", Type: tool.Object, Properties: []tool.Param{
			{Name: "column", Type: tool.String},
			{Name: "func", Type: tool.String, Required: true, Enum: []string{"count", "count_distinct", "sum", "avg", "mean", "min", "max"}},
			{Name: "as", Type: tool.String},
		}}}
	pIndex       = tool.Param{Name: "index", Type: tool.Array, Items: &tool.Param{Name: "item", Type: tool.String}, Description: "Row keys (like group_by)."}
	pPivotColumn = tool.Param{Name: "pivot_column", Type: tool.String, Description: "Column whose values become columns."}
	pValues      = tool.Param{Name: "values", Type: tool.String, Description: "Column aggregated into cells."}
	pAgg         = tool.Param{Name: "agg", Type: tool.String, Default: "sum", Enum: []string{"sum", "count", "avg", "min", "max"}}
	pOn          = tool.Param{Name: "on", Type: tool.Array, Items: &tool.Param{Name: "item", Type: tool.String}, Description: "Join keys: shared columns or \"left=right\"."}
	pHow         = tool.Param{Name: "how", Type: tool.String, Default: "inner", Enum: []string{"inner", "left", "right", "full"}}
	pDedupe      = tool.Param{Name: "dedupe", Type: tool.Boolean, Default: true}
	pDropEmpty   = tool.Param{Name: "drop_empty", Type: tool.Boolean, Default: true}
	pFill        = tool.Param{Name: "fill", Type: tool.Object, Description: "Fill empty cells: {\"column\": value}; \"previous\" repeats the cell above."}
	pNormalize   = tool.Param{Name: "normalize", Type: tool.Boolean, Description: "Parse numbers and dates.", Default: true}
	pOutput      = tool.OutputParam("Default under outputs/.")
	pFormat      = tool.Param{Name: "format", Type: tool.String, Description: "Default from output's extension, else xlsx.", Enum: []string{"xlsx", "csv", "json"}}
	pOverwrite   = tool.Overwrite
)

func withRequired(p tool.Param) tool.Param { p.Required = true; return p }

func (p *processor) actions() []tool.Action {
	src := []tool.Param{withRequired(pPath), pSheet, pHeader, pHeaderRow}
	many := []tool.Param{withRequired(pPaths), pSheet, pHeader, pHeaderRow}
	page := []tool.Param{pOffset, pLimit}
	cat := func(groups ...[]tool.Param) []tool.Param {
		var out []tool.Param
		for _, g := range groups {
			out = append(out, g...)
		}
		return out
	}
	return []tool.Action{
		{Name: "sheets", Handler: p.sheets, Level: tool.Read, Timeout: tool.Fast, Idempotent: true, Params: []tool.Param{withRequired(pPath)}},
		{Name: "read", Handler: p.read, Level: tool.Read, Timeout: tool.Normal, Idempotent: true, Params: cat(src, page, []tool.Param{pColumns})},
		{Name: "describe", Handler: p.describe, Description: "column stats", Level: tool.Read, Timeout: tool.Slow, Idempotent: true, Params: cat(src, []tool.Param{pColumns})},
		{Name: "query", Handler: p.query, Description: "SQL over paths", Level: tool.Read, Timeout: tool.Slow, Idempotent: true, Params: cat(many, []tool.Param{withRequired(pSQL)}, page)},
		{Name: "filter", Handler: p.transform, Level: tool.Read, Timeout: tool.Slow, Idempotent: true, Params: cat(src, []tool.Param{withRequired(pWhere), pMatch, pOrderBy, pColumns}, page)},
		{Name: "sort", Handler: p.transform, Level: tool.Read, Timeout: tool.Slow, Idempotent: true, Params: cat(src, []tool.Param{withRequired(pOrderBy), pColumns}, page)},
		{Name: "group", Handler: p.transform, Level: tool.Read, Timeout: tool.Slow, Idempotent: true, Params: cat(src, []tool.Param{withRequired(pGroupBy), pAggs, pWhere, pMatch, pOrderBy}, page)},
		{Name: "pivot", Handler: p.transform, Level: tool.Read, Timeout: tool.Slow, Idempotent: true, Params: cat(src, []tool.Param{withRequired(pIndex), withRequired(pPivotColumn), withRequired(pValues), pAgg, pWhere, pMatch}, page)},
		{Name: "join", Handler: p.join, Description: "two files on keys", Level: tool.Read, Timeout: tool.Slow, Idempotent: true, Params: cat(many, []tool.Param{withRequired(pOn), pHow, pColumns}, page)},
		{Name: "clean", Handler: p.clean, Description: "a cleaned copy", Level: tool.Write, Timeout: tool.Slow, Params: cat(src, []tool.Param{pDedupe, pDropEmpty, pFill, pNormalize, pOutput, pFormat, pOverwrite})},
		{Name: "export", Handler: p.export, Description: "path, or a paths + sql result, as a file", Level: tool.Write, Timeout: tool.Slow, Params: cat([]tool.Param{pPath, pPaths, pSheet, pHeader, pHeaderRow, pSQL, pColumns}, []tool.Param{pOutput, pFormat, pOverwrite})},
	}
}
