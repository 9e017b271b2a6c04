package convert

// The readers other tools reuse (knowledge_rag indexes documents with them),
// so that a .docx or an HTML page reads the same everywhere.

// DocxMarkdown reads a .docx as Markdown: Word headings become # lines,
// lists, tables and code blocks keep their shape.
func DocxMarkdown(data []byte) (string, error) { return docxRead(data, true) }

// HTMLMarkdown converts HTML to Markdown (h1..h6 become # lines); scripts,
// styles and the head are dropped.
func HTMLMarkdown(src []byte) (string, error) { return toMarkdown(src) }
