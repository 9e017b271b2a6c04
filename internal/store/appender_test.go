package store

import (
	"bytes"
	"context"
	"database/sql"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rs/zerolog"
)

const rowInsert = `INSERT INTO r(session, n) VALUES ($1, $2)`

func appenderStore(t *testing.T, dir string) *Store {
	t.Helper()
	s, err := OpenSQLite(dir)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Migrate("r", `CREATE TABLE IF NOT EXISTS r (session TEXT, n INTEGER)`); err != nil {
		t.Fatal(err)
	}
	return s
}

// TestAppender_FlushSeesEveryRowAdded: rows added before Flush are on disk
// when it returns, read through the read pool.
func TestAppender_FlushSeesEveryRowAdded(t *testing.T) {
	s := appenderStore(t, t.TempDir())
	defer s.Close()
	a := s.Appender("r", rowInsert, zerolog.Nop())
	if s.Appender("r", "ignored", zerolog.Nop()) != a {
		t.Fatal("a second Appender for the same name is a second writer")
	}
	for i := range 1000 { // more than one batch
		if !a.Add("a", i) {
			t.Fatalf("row %d dropped with room in the queue", i)
		}
	}
	if err := a.Flush(context.Background()); err != nil {
		t.Fatal(err)
	}
	var n int
	if err := s.Read().QueryRow(`SELECT count(*) FROM r`).Scan(&n); err != nil || n != 1000 {
		t.Fatalf("after Flush: %d rows, %v", n, err)
	}
}

// TestAppender_CloseDrainsQueue: a graceful Close writes out what is still
// queued (nothing waits for the flush interval), and a row added after
// Close is counted, not lost silently and not a panic.
func TestAppender_CloseDrainsQueue(t *testing.T) {
	dir := t.TempDir()
	s := appenderStore(t, dir)
	a := s.Appender("r", rowInsert, zerolog.Nop())
	for i := range 3000 {
		a.Add("a", i)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if a.Add("late", 1) || a.Dropped() != 1 {
		t.Fatalf("Add after Close: dropped %d", a.Dropped())
	}
	if err := a.Flush(context.Background()); err != nil {
		t.Fatalf("Flush after Close: %v", err)
	}
	s2 := appenderStore(t, dir)
	defer s2.Close()
	var n int
	if err := s2.Read().QueryRow(`SELECT count(*) FROM r`).Scan(&n); err != nil || n != 3000 {
		t.Fatalf("after Close and reopen: %d rows, %v; want 3000", n, err)
	}
}

// TestAppender_FullQueueDropsAndCounts: when the writer cannot keep up
// (here: another handle holds the write lock), Add still returns at once,
// the rows beyond the queue are counted as dropped, and one warning per
// interval says so, not one per row.
func TestAppender_FullQueueDropsAndCounts(t *testing.T) {
	dir := t.TempDir()
	s := appenderStore(t, dir)
	defer s.Close()
	var logged bytes.Buffer
	var logMu sync.Mutex
	a := s.Appender("r", rowInsert, zerolog.New(lockedWriter{&logMu, &logged}))

	other := appenderStore(t, dir)
	defer other.Close()
	hold, err := other.DB().Begin() // _txlock=immediate: takes the write lock
	if err != nil {
		t.Fatal(err)
	}
	if _, err := hold.Exec(`INSERT INTO r VALUES ('other', 0)`); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	const extra = 500
	added := 0
	for i := range queueRows + batchRows + extra {
		if a.Add("a", i) {
			added++
		}
	}
	if d := time.Since(start); d > time.Second {
		t.Fatalf("Add blocked for %v with a full queue", d)
	}
	if a.Dropped() == 0 || int(a.Dropped())+added != queueRows+batchRows+extra {
		t.Fatalf("added %d, dropped %d: every row is either queued or counted", added, a.Dropped())
	}
	hold.Rollback()
	if err := a.Flush(context.Background()); err != nil {
		t.Fatal(err)
	}
	time.Sleep(3 * flushEvery)
	var n int
	s.Read().QueryRow(`SELECT count(*) FROM r`).Scan(&n)
	if int64(n)+a.Dropped() != queueRows+batchRows+extra {
		t.Fatalf("%d stored + %d dropped != %d added", n, a.Dropped(), queueRows+batchRows+extra)
	}
	logMu.Lock()
	lines := strings.Count(logged.String(), "rows not stored: queue full")
	logMu.Unlock()
	if lines < 1 || lines > 3 {
		t.Fatalf("%d drop warnings, want one per interval at most:\n%s", lines, logged.String())
	}
}

type lockedWriter struct {
	mu *sync.Mutex
	w  *bytes.Buffer
}

func (l lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

// TestStore_OneWriterNeverBusy: 200 sessions' worth of concurrent writers
// (synchronous transactions, plain Execs and appended rows) and readers on
// one store never see SQLITE_BUSY, and the descriptors open on the
// database files stay at the pool size instead of growing with them.
func TestStore_OneWriterNeverBusy(t *testing.T) {
	s := appenderStore(t, t.TempDir())
	defer s.Close()
	a := s.Appender("r", rowInsert, zerolog.Nop())
	ctx := context.Background()
	var wg sync.WaitGroup
	errs := make(chan error, 200*3)
	for w := range 200 {
		sess := fmt.Sprintf("s%d", w)
		wg.Go(func() {
			for i := range 5 {
				a.Add(sess, i)
				if err := s.Tx(ctx, func(tx *sql.Tx) error {
					_, err := tx.Exec(`INSERT INTO r VALUES ($1, $2)`, sess, -1)
					return err
				}); err != nil {
					errs <- err
					return
				}
				if _, err := s.DB().Exec(`INSERT INTO r VALUES ($1, $2)`, sess, -2); err != nil {
					errs <- err
					return
				}
				var n int
				if err := s.Read().QueryRow(`SELECT count(*) FROM r WHERE session = ?`, sess).Scan(&n); err != nil {
					errs <- err
					return
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Errorf("concurrent write: %v", err)
	}
	if err := a.Flush(ctx); err != nil {
		t.Fatal(err)
	}
	var n int
	if err := s.Read().QueryRow(`SELECT count(*) FROM r`).Scan(&n); err != nil || n != 200*5*3 {
		t.Fatalf("%d rows, %v; want %d", n, err, 200*5*3)
	}
	// Each connection holds the database and its WAL (the -shm index is
	// mapped, and its descriptor too): 1 writer + the readers, 3 each.
	if fds := fdsOn(t, s.Path()); fds == 0 || fds > 3*(1+readers) {
		t.Fatalf("%d descriptors open on %s after 200 concurrent writers, want at most %d", fds, s.Path(), 3*(1+readers))
	}
}

func fdsOn(t *testing.T, db string) int {
	t.Helper()
	ents, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		t.Skip("no /proc/self/fd")
	}
	n := 0
	for _, e := range ents {
		if target, err := os.Readlink(filepath.Join("/proc/self/fd", e.Name())); err == nil && strings.HasPrefix(target, db) {
			n++
		}
	}
	return n
}

// TestStore_WriterPragmas: the writer runs WAL with synchronous=NORMAL and
// a busy timeout; the read pool cannot write.
func TestStore_WriterPragmas(t *testing.T) {
	s := appenderStore(t, t.TempDir())
	defer s.Close()
	var journal string
	var sync, busy int
	s.DB().QueryRow(`PRAGMA journal_mode`).Scan(&journal)
	s.DB().QueryRow(`PRAGMA synchronous`).Scan(&sync)
	s.DB().QueryRow(`PRAGMA busy_timeout`).Scan(&busy)
	if journal != "wal" || sync != 1 || busy < 1000 {
		t.Fatalf("journal %q, synchronous %d (1 is NORMAL), busy_timeout %d", journal, sync, busy)
	}
	if _, err := s.Read().Exec(`INSERT INTO r VALUES ('x', 1)`); err == nil {
		t.Fatal("the read pool wrote")
	}
}
