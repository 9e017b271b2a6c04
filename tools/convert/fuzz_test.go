package convert

import (
	"archive/zip"
	"bytes"
	"context"
	"github.com/clawbridge/clawbridge/internal/ooxml"
	"testing"
)

// FuzzCSVRoundTrip: whatever CSV comes in, csv -> xlsx -> csv keeps every
// cell's text (numbers in canonical form).
func FuzzCSVRoundTrip(f *testing.F) {
	f.Add(sampleCSV)
	f.Add("a\n007\n1e400\n-0\n2024-13-40\n")
	f.Fuzz(func(t *testing.T, s string) {
		g, err := readCSV([]byte(s))
		if err != nil || len(g.rows) == 0 || len(g.rows) > 200 {
			return
		}
		x, err := writeXLSX(context.Background(), g)
		if err != nil {
			return // e.g. characters XML cannot hold
		}
		g2, err := readXLSX(x, "")
		if err != nil {
			t.Fatal(err)
		}
		for i, r := range g.rows {
			for j, c := range r {
				var got string
				if i < len(g2.rows) && j < len(g2.rows[i]) {
					got = g2.rows[i][j].text()
				}
				if c.k != kString && got != c.text() {
					t.Fatalf("cell %d,%d: %q became %q", i, j, c.text(), got)
				}
			}
		}
	})
}

// FuzzDocxRead: arbitrary document.xml never panics the reader.
func FuzzDocxRead(f *testing.F) {
	f.Add(`<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body><w:p><w:r><w:t>hi</w:t></w:r></w:p></w:body></w:document>`)
	f.Add(`<w:document xmlns:w="x"><w:body><w:tbl><w:tr><w:tc></w:tc></w:tr></w:tbl><w:p><w:pPr><w:numPr><w:ilvl w:val="-3"/><w:numId w:val="1"/></w:numPr></w:pPr><w:r><w:t>x</w:t></w:r></w:p></w:body></w:document>`)
	f.Fuzz(func(t *testing.T, doc string) {
		var buf bytes.Buffer
		zw := zip.NewWriter(&buf)
		w, _ := zw.Create("word/document.xml")
		w.Write([]byte(doc))
		zw.Close()
		_, _ = ooxml.Docx(buf.Bytes(), true)
		_, _ = ooxml.Docx(buf.Bytes(), false)
	})
}

// TestCancel_TableWriteStops: a cancelled call stops writing a big table
// instead of finishing it.
func TestCancel_TableWriteStops(t *testing.T) {
	g, err := readCSV(bytes.Repeat([]byte("a,b,c\n1,2,3\n"), 2000))
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if out, err := writeXLSX(ctx, g); err != context.Canceled || out != nil {
		t.Fatalf("writeXLSX with a cancelled context = %d bytes, %v; want context.Canceled", len(out), err)
	}
	if _, err := writeXLSX(context.Background(), g); err != nil {
		t.Fatal(err)
	}
}
