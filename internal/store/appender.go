package store

import (
	"context"
	"database/sql"
	"sync"
	"sync/atomic"
	"time"

	"github.com/rs/zerolog"
)

// Group-commit bounds: a row waits at most flushEvery before it is written,
// a transaction holds at most batchRows rows, and at most queueRows wait.
const (
	flushEvery = 100 * time.Millisecond
	batchRows  = 256
	queueRows  = 4096
)

// An Appender inserts rows of one statement from one goroutine, many rows
// per transaction, so the caller never waits for the disk. Add never
// blocks: when the queue is full the row is dropped and counted. Store.Close
// writes out what is queued; a crash loses at most the last flushEvery.
// For rows that must be on disk before the caller goes on (tokens, pending
// approvals), use Tx instead.
type Appender struct {
	st      *Store
	name    string
	stmt    string
	log     zerolog.Logger
	rows    chan []any
	flushes chan chan struct{}
	done    chan struct{}
	dropped atomic.Int64

	mu     sync.RWMutex // held for reading by Add, for writing by close
	closed bool

	warned time.Time // last write failure logged (loop goroutine only)
}

// Appender returns the store's appender for name (one per name and store,
// whoever asks), started on first use with stmt, an INSERT with
// placeholders.
func (s *Store) Appender(name, stmt string, log zerolog.Logger) *Appender {
	s.mu.Lock()
	defer s.mu.Unlock()
	if a := s.appenders[name]; a != nil {
		return a
	}
	a := &Appender{st: s, name: name, stmt: stmt, log: log,
		rows: make(chan []any, queueRows), flushes: make(chan chan struct{}), done: make(chan struct{})}
	s.appenders[name] = a
	go a.loop()
	return a
}

// Add queues one row; false when it was dropped (queue full, or closed).
func (a *Appender) Add(args ...any) bool {
	a.mu.RLock()
	defer a.mu.RUnlock()
	if !a.closed {
		select {
		case a.rows <- args:
			return true
		default:
		}
	}
	a.dropped.Add(1)
	return false
}

// Flush returns once every row added before it is committed (or dropped).
func (a *Appender) Flush(ctx context.Context) error {
	ack := make(chan struct{})
	select {
	case a.flushes <- ack:
	case <-a.done:
		return nil // closed: everything was written out
	case <-ctx.Done():
		return ctx.Err()
	}
	select {
	case <-ack:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// Dropped is how many rows were not stored since the appender started:
// refused by a full queue, or in a transaction that failed.
func (a *Appender) Dropped() int64 { return a.dropped.Load() }

func (a *Appender) close() {
	a.mu.Lock()
	if !a.closed {
		a.closed = true
		close(a.rows)
	}
	a.mu.Unlock()
	<-a.done
}

func (a *Appender) loop() {
	defer close(a.done)
	tick := time.NewTicker(flushEvery)
	defer tick.Stop()
	batch := make([][]any, 0, batchRows)
	var reported int64
	for {
		select {
		case r, ok := <-a.rows:
			if !ok {
				a.commit(batch)
				return
			}
			if batch = append(batch, r); len(batch) == batchRows {
				batch = a.commit(batch)
			}
		case ack := <-a.flushes:
			for more := true; more; {
				select {
				case r, ok := <-a.rows:
					if !ok {
						more = false
						break
					}
					if batch = append(batch, r); len(batch) == batchRows {
						batch = a.commit(batch)
					}
				default:
					more = false
				}
			}
			batch = a.commit(batch)
			close(ack)
		case <-tick.C:
			batch = a.commit(batch)
			// One line per interval at most, however many were dropped.
			if n := a.dropped.Load(); n != reported {
				a.log.Warn().Str("table", a.name).Int64("dropped", n-reported).Int64("dropped_total", n).Msg("rows not stored: queue full or write failed")
				reported = n
			}
		}
	}
}

// commit writes batch in one transaction and returns it emptied; on failure
// its rows count as dropped.
func (a *Appender) commit(batch [][]any) [][]any {
	if len(batch) == 0 {
		return batch
	}
	err := a.st.Tx(context.Background(), func(tx *sql.Tx) error {
		st, err := tx.Prepare(a.stmt)
		if err != nil {
			return err
		}
		defer st.Close()
		for _, r := range batch {
			if _, err := st.Exec(r...); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		a.dropped.Add(int64(len(batch)))
		if time.Since(a.warned) >= flushEvery {
			a.log.Warn().Err(err).Str("table", a.name).Int("rows", len(batch)).Msg("rows not stored")
			a.warned = time.Now()
		}
	}
	return batch[:0]
}
