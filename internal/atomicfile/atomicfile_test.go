package atomicfile

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sync"
	"syscall"
	"testing"
)

// entries lists a directory, so a test can show no temp file is left.
func entries(t *testing.T, dir string) []string {
	t.Helper()
	es, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range es {
		names = append(names, e.Name())
	}
	return names
}

func TestAtomicFile_NewFileAndPermissions(t *testing.T) {
	old := syscall.Umask(0o077) // perm is applied as given, not through the umask
	defer syscall.Umask(old)
	dir := t.TempDir()
	for _, perm := range []os.FileMode{0o600, 0o644, 0o640} {
		p := filepath.Join(dir, fmt.Sprintf("f%o.txt", perm))
		if err := WriteFile(p, []byte("hello"), perm); err != nil {
			t.Fatal(err)
		}
		st, err := os.Stat(p)
		if err != nil {
			t.Fatal(err)
		}
		if st.Mode().Perm() != perm {
			t.Errorf("%s: mode %o, want %o", p, st.Mode().Perm(), perm)
		}
		if b, _ := os.ReadFile(p); string(b) != "hello" {
			t.Errorf("%s: %q", p, b)
		}
	}
	if got := entries(t, dir); len(got) != 3 {
		t.Errorf("directory holds %v, want the three files only", got)
	}
}

// TestAtomicFile_Replace: the target is replaced by a new file (a reader
// that had the old one open keeps reading the old content, whole), with the
// new permissions.
func TestAtomicFile_Replace(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "doc.txt")
	if err := os.WriteFile(p, []byte("old content"), 0o600); err != nil {
		t.Fatal(err)
	}
	reader, err := os.Open(p)
	if err != nil {
		t.Fatal(err)
	}
	defer reader.Close()
	if err := WriteFile(p, []byte("new"), 0o644); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(p); string(b) != "new" {
		t.Errorf("after replace: %q", b)
	}
	if b, _ := io.ReadAll(reader); string(b) != "old content" {
		t.Errorf("the open reader saw %q, want the old content whole", b)
	}
	if st, _ := os.Stat(p); st.Mode().Perm() != 0o644 {
		t.Errorf("mode %o after replace", st.Mode().Perm())
	}
	if got := entries(t, dir); len(got) != 1 {
		t.Errorf("directory holds %v", got)
	}
}

// TestAtomicFile_NoPartialFileOnFailure: when fill fails after writing
// part of the data, or panics, the target keeps its old content (or is
// not created) and no temp file is left; the error is fill's.
func TestAtomicFile_NoPartialFileOnFailure(t *testing.T) {
	errDisk := errors.New("disk full")
	failing := func(w io.Writer) error {
		w.Write(bytes.Repeat([]byte("x"), 1<<16))
		return errDisk
	}
	panicking := func(w io.Writer) error {
		w.Write([]byte("half"))
		panic("bug in fill")
	}
	for _, existed := range []bool{false, true} {
		for name, fill := range map[string]func(io.Writer) error{"error": failing, "panic": panicking} {
			t.Run(fmt.Sprintf("%s existed=%v", name, existed), func(t *testing.T) {
				dir := t.TempDir()
				p := filepath.Join(dir, "out.bin")
				if existed {
					os.WriteFile(p, []byte("keep me"), 0o600)
				}
				err := func() (err error) {
					defer func() {
						if r := recover(); r != nil {
							err = fmt.Errorf("panic: %v", r)
						}
					}()
					return Write(p, 0o644, fill)
				}()
				if err == nil {
					t.Fatal("a failed fill reported success")
				}
				if name == "error" && !errors.Is(err, errDisk) {
					t.Errorf("error %v does not wrap fill's", err)
				}
				b, rerr := os.ReadFile(p)
				switch {
				case existed && string(b) != "keep me":
					t.Errorf("target now holds %d bytes %.20q, want the old content", len(b), b)
				case !existed && !os.IsNotExist(rerr):
					t.Errorf("target created by a failed write: %v", rerr)
				}
				want := 0
				if existed {
					want = 1
				}
				if got := entries(t, dir); len(got) != want {
					t.Errorf("directory holds %v: a temp file was left", got)
				}
			})
		}
	}
	// A directory that does not exist: an error, nothing created.
	p := filepath.Join(t.TempDir(), "missing", "f")
	if err := WriteFile(p, []byte("x"), 0o644); err == nil {
		t.Error("write into a missing directory succeeded")
	}
}

// TestAtomicFile_ConcurrentReadersNeverSeeTornFile: while writers replace
// a file over and over with full contents of different sizes, every read
// sees one of those contents whole.
func TestAtomicFile_ConcurrentReadersNeverSeeTornFile(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "shared.txt")
	contents := [][]byte{bytes.Repeat([]byte("a"), 10), bytes.Repeat([]byte("b"), 100_000), bytes.Repeat([]byte("c"), 3000)}
	if err := WriteFile(p, contents[0], 0o644); err != nil {
		t.Fatal(err)
	}
	valid := map[string]bool{}
	for _, c := range contents {
		valid[string(c)] = true
	}
	var wg sync.WaitGroup
	stop := make(chan struct{})
	for w := range 3 {
		wg.Go(func() {
			for i := 0; i < 100; i++ {
				if err := WriteFile(p, contents[(w+i)%len(contents)], 0o644); err != nil {
					t.Error(err)
					return
				}
			}
		})
	}
	var readers sync.WaitGroup
	for range 2 {
		readers.Go(func() {
			for {
				select {
				case <-stop:
					return
				default:
				}
				b, err := os.ReadFile(p)
				if err != nil {
					t.Errorf("read during replace: %v", err)
					return
				}
				if !valid[string(b)] {
					t.Errorf("torn read: %d bytes", len(b))
					return
				}
			}
		})
	}
	wg.Wait()
	close(stop)
	readers.Wait()
	if got := entries(t, dir); len(got) != 1 {
		t.Errorf("directory holds %v after the writers finished", got)
	}
}

func TestWriteNew_RefusesExistingAndLeavesIt(t *testing.T) {
	p := filepath.Join(t.TempDir(), "f")
	if err := WriteNew(p, 0o600, func(w io.Writer) error { _, err := io.WriteString(w, "one"); return err }); err != nil {
		t.Fatal(err)
	}
	err := WriteNew(p, 0o600, func(w io.Writer) error { _, err := io.WriteString(w, "two"); return err })
	if !errors.Is(err, ErrExists) {
		t.Fatalf("want ErrExists, got %v", err)
	}
	if b, _ := os.ReadFile(p); string(b) != "one" {
		t.Fatalf("replaced: %q", b)
	}
	if fi, _ := os.Stat(p); fi.Mode().Perm() != 0o600 {
		t.Fatalf("mode %v", fi.Mode())
	}
	if ents, _ := os.ReadDir(filepath.Dir(p)); len(ents) != 1 {
		t.Fatalf("temp files left: %v", ents)
	}
}

func TestWrite_FailedFillKeepsOld(t *testing.T) {
	p := filepath.Join(t.TempDir(), "f")
	WriteFile(p, []byte("old"), 0o644)
	if err := Write(p, 0o644, func(w io.Writer) error { io.WriteString(w, "ne"); return errors.New("boom") }); err == nil {
		t.Fatal("no error")
	}
	if b, _ := os.ReadFile(p); string(b) != "old" {
		t.Fatalf("torn: %q", b)
	}
	if ents, _ := os.ReadDir(filepath.Dir(p)); len(ents) != 1 {
		t.Fatalf("temp files left: %v", ents)
	}
}
