// Package htmlpdf holds the print settings of an HTML→PDF rendering. It sits
// apart from package browser (which renders) and tools/tool (whose Deps
// carries the renderer) so that neither has to import the other.
package htmlpdf

// Options are print settings for an HTML→PDF renderer.
type Options struct {
	PageSize  string // "A4" (default), "Letter", "A3", "A5", "Legal"
	Landscape bool
	MarginMM  float64 // all four margins; default 15
	// HeaderFooter prints page numbers in the footer.
	HeaderFooter bool
}
