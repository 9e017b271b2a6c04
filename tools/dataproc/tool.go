// Package dataproc is the data_processor tool: xlsx, csv and json files
// read as streams (excelize's row iterator), described, and queried through
// one embedded SQLite engine; results exported with excelize's stream writer.
package dataproc

import (
	"errors"
	"github.com/clawbridge/clawbridge/internal/config"
	"github.com/clawbridge/clawbridge/internal/table"
	"github.com/clawbridge/clawbridge/tools/tool"
)

// Config is the tools.data_processor section.
type Config struct {
	MaxFileMB  int64 `yaml:"max_file_mb"`  // largest input file (default 512)
	MaxUnzipMB int64 `yaml:"max_unzip_mb"` // largest uncompressed workbook (default 2048)
	MaxRows    int   `yaml:"max_rows"`     // data rows per table (default 5,000,000)
}

// Validate refuses negative limits (zero, or leaving a key out, means the
// default).
func (c *Config) Validate() error {
	return errors.Join(
		config.AtLeast("max_file_mb", c.MaxFileMB, 0),
		config.AtLeast("max_unzip_mb", c.MaxUnzipMB, 0),
		config.AtLeast("max_rows", c.MaxRows, 0),
	)
}

type processor struct {
	d      *tool.Deps
	limits table.Limits
}

// New builds data_processor.
func New(d *tool.Deps) (tool.Tool, error) {
	return tool.Configured[Config]{Name: "data_processor", Provision: provision}.New(d)
}

// provision builds data_processor from its decoded section (a zero limit
// keeps the built-in one).
func provision(d *tool.Deps, cfg Config) (tool.Tool, error) {
	p := &processor{d: d, limits: table.DefaultLimits}
	if cfg.MaxFileMB > 0 {
		p.limits.MaxFileBytes = cfg.MaxFileMB << 20
	}
	if cfg.MaxUnzipMB > 0 {
		p.limits.MaxUnzipBytes = cfg.MaxUnzipMB << 20
	}
	if cfg.MaxRows > 0 {
		p.limits.MaxRows = cfg.MaxRows
	}
	return tool.Tool{
		Name:  "data_processor",
		Title: "Data processor (Excel, CSV, JSON)",
		Description: "Analyses spreadsheet and table files (xlsx, csv, tsv, json): statistics, SQL, pivot, join, clean. " +
			"Use it for answers from a data file rather than its raw text; data_visualization draws charts.",
		Actions: p.actions(),
		Examples: []string{
			"Analyse the sales trend in sales_data.xlsx",
			"What are the total sales per region in orders.csv?",
			"Describe the columns of this Excel file",
			"Join customers.xlsx and orders.csv on customer_id",
			"分析一下这个 sales_data.xlsx 文件的销售趋势",
			"按地区汇总销售额，做个数据透视表",
			"把这个表格去重、清洗后导出成 Excel",
			"统计每个月的订单数量",
		},
	}, nil
}
