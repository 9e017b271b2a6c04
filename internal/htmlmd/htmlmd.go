// Package htmlmd turns HTML into Markdown, one way for every tool (convert's
// html→md, knowledge_rag's indexing of pages), so that a page reads the same
// everywhere.
package htmlmd

import (
	"strings"

	h2m "github.com/JohannesKaufmann/html-to-markdown/v2/converter"
	"github.com/JohannesKaufmann/html-to-markdown/v2/plugin/base"
	"github.com/JohannesKaufmann/html-to-markdown/v2/plugin/commonmark"
	"github.com/JohannesKaufmann/html-to-markdown/v2/plugin/strikethrough"
	"github.com/JohannesKaufmann/html-to-markdown/v2/plugin/table"

	"github.com/clawbridge/clawbridge/tools/tool"
)

// Markdown converts HTML to GitHub-flavoured Markdown (tables and
// strikethrough included). Scripts, styles and the head are dropped.
func Markdown(src []byte) (string, error) {
	conv := h2m.NewConverter(h2m.WithPlugins(
		base.NewBasePlugin(),
		commonmark.NewCommonmarkPlugin(),
		table.NewTablePlugin(),
		strikethrough.NewStrikethroughPlugin(),
	))
	md, err := conv.ConvertString(string(src))
	if err != nil {
		return "", tool.Errorf(tool.CodeFailed, "", "html to markdown: %v", err)
	}
	return strings.TrimSpace(md) + "\n", nil
}
