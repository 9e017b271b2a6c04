package browser

import (
	"bytes"
	"context"
	"image"
	"image/png"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/clawbridge/clawbridge/internal/htmlpdf"
	"github.com/clawbridge/clawbridge/internal/netguard"
	"github.com/clawbridge/clawbridge/internal/toolerr"
	"github.com/clawbridge/clawbridge/tools/tooltest"
)

func testGuard() *netguard.Guard {
	g, _ := netguard.New([]string{"127.0.0.1"})
	return g
}

const cjkHTML = `<!doctype html><html><head><meta charset="utf-8"><style>
body{font-family:sans-serif} .bg{background:#ffe0e0;padding:4mm} p{page-break-after:always}</style></head>
<body><h1>Quarterly report 季度报告</h1><div class="bg"><p>中文内容测试：你好，世界。</p></div><p>Second page</p><p>Third page</p></body></html>`

func TestHTMLToPDF(t *testing.T) {
	needBrowser(t)
	pdfinfo := tooltest.NeedProgram(t, "pdfinfo")
	cases := []struct {
		name   string
		opts   htmlpdf.Options
		size   string // pdfinfo "Page size" prefix in points
		footer bool
	}{
		{"a4 default", htmlpdf.Options{}, "595", false},
		{"a5 landscape numbered", htmlpdf.Options{PageSize: "a5", Landscape: true, MarginMM: 10, HeaderFooter: true}, "595.92 x 420", true},
	}
	dir := t.TempDir()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(t.Context(), 60*time.Second)
			defer cancel()
			data, err := testMgr.HTMLToPDF(ctx, []byte(cjkHTML), tc.opts)
			if err != nil {
				t.Fatal(err)
			}
			path := filepath.Join(dir, strings.ReplaceAll(tc.name, " ", "_")+".pdf")
			if err := os.WriteFile(path, data, 0o644); err != nil {
				t.Fatal(err)
			}
			out, err := exec.Command(pdfinfo, path).CombinedOutput()
			if err != nil {
				t.Fatalf("pdfinfo: %v\n%s", err, out)
			}
			if !strings.Contains(string(out), "Page size:       "+tc.size) {
				t.Errorf("page size: want %q in\n%s", tc.size, out)
			}
			if !strings.Contains(string(out), "Pages:           3") {
				t.Errorf("want 3 pages:\n%s", out)
			}
			if p, err := exec.LookPath("pdftotext"); err == nil {
				txt, err := exec.Command(p, path, "-").Output()
				if err != nil {
					t.Fatal(err)
				}
				if !bytes.Contains(txt, []byte("季度报告")) || !bytes.Contains(txt, []byte("你好，世界")) {
					t.Errorf("CJK text missing from PDF text:\n%s", txt)
				}
				if tc.footer && !bytes.Contains(bytes.ReplaceAll(txt, []byte(" "), nil), []byte("2/3")) {
					t.Errorf("page number footer missing:\n%q", txt)
				}
			}
			if p, err := exec.LookPath("pdffonts"); err == nil {
				fonts, _ := exec.Command(p, path).Output()
				if !bytes.Contains(bytes.ToLower(fonts), []byte("wenquanyi")) && !bytes.Contains(bytes.ToLower(fonts), []byte("cjk")) {
					t.Errorf("no CJK font embedded:\n%s", fonts)
				}
			}
		})
	}
	t.Run("all sizes", func(t *testing.T) {
		for name, want := range map[string][2]float64{"Legal": {8.5, 14}, "A3": {11.69, 16.54}, "letter": {8.5, 11}} {
			req, err := printParams(htmlpdf.Options{PageSize: name})
			if err != nil || *req.PaperWidth != want[0] || *req.PaperHeight != want[1] {
				t.Errorf("%s: %v %v", name, req, err)
			}
		}
	})
	t.Run("waits for images", func(t *testing.T) {
		pdfimages := tooltest.NeedProgram(t, "pdfimages")
		// A slow image server: the print must wait for the picture.
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			time.Sleep(500 * time.Millisecond)
			img := image.NewRGBA(image.Rect(0, 0, 40, 30))
			for i := range img.Pix {
				img.Pix[i] = byte(i * 7)
			}
			w.Header().Set("Content-Type", "image/png")
			_ = png.Encode(w, img)
		}))
		defer srv.Close()
		html := `<!doctype html><html><body><p>Picture:</p><img src="` + srv.URL + `/pic.png" width="200"></body></html>`
		data, err := testMgr.HTMLToPDF(t.Context(), []byte(html), htmlpdf.Options{})
		if err != nil {
			t.Fatal(err)
		}
		path := filepath.Join(dir, "image.pdf")
		_ = os.WriteFile(path, data, 0o644)
		out, err := exec.Command(pdfimages, "-list", path).CombinedOutput()
		if err != nil || !strings.Contains(string(out), " 40    30 ") {
			t.Fatalf("image missing from PDF: %v\n%s", err, out)
		}
	})
	t.Run("bad page size", func(t *testing.T) {
		_, err := testMgr.HTMLToPDF(t.Context(), []byte("<p>x</p>"), htmlpdf.Options{PageSize: "B7"})
		if e, ok := toolerr.As(err); !ok || e.Code != toolerr.CodeInvalid {
			t.Fatalf("want invalid error, got %v", err)
		}
	})
}
