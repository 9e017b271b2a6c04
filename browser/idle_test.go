package browser

import (
	"os"
	"strings"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/clawbridge/clawbridge/fixtures/site"
	"github.com/clawbridge/clawbridge/internal/htmlpdf"
)

func TestIdleShutdown(t *testing.T) {
	needBrowser(t)
	srv := site.Start(t)
	testMgr.setIdleTimeout(300 * time.Millisecond)
	defer testMgr.setIdleTimeout(0)
	s := testMgr.Session("idle")
	defer testMgr.CloseSession("idle")
	if _, err := s.Navigate(ctxT(t), srv.At("/table.html")); err != nil {
		t.Fatal(err)
	}
	// Poll (no timing assertion): the browser stops once idle.
	for i := 0; i < 100 && testMgr.Running(); i++ {
		time.Sleep(100 * time.Millisecond)
	}
	if testMgr.Running() {
		t.Fatal("browser still running after the idle timeout")
	}
	testMgr.setIdleTimeout(0)
	s.TakeEvents()
	res, err := s.Navigate(ctxT(t), srv.At("/form.html"))
	if err != nil {
		t.Fatal(err)
	}
	if ev := s.TakeEvents(); !strings.Contains(ev.Notice, "idle") || res.Title != "Sign up" {
		t.Fatalf("after idle restart: %q %+v", ev.Notice, res)
	}
}

func TestLazyAndClosed(t *testing.T) {
	m := New(DefaultConfig(), testGuard(), zerolog.New(os.Stderr).Level(zerolog.WarnLevel))
	if m.Running() {
		t.Fatal("launched before first use")
	}
	m.Close()
	if _, err := m.Session("x").Navigate(ctxT(t), "https://example.com/"); err != ErrClosed {
		t.Fatalf("after Close: %v", err)
	}
	if _, err := m.HTMLToPDF(ctxT(t), []byte("<p>x</p>"), htmlpdf.Options{}); err != ErrClosed {
		t.Fatalf("pdf after Close: %v", err)
	}
}
