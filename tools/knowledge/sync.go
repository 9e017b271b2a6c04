package knowledge

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/blevesearch/bleve/v2"

	"github.com/clawbridge/clawbridge/internal/jail"
)

// syncReport says what one index run did.
type syncReport struct {
	Index     string       `json:"index"`
	Files     int          `json:"files"`
	Added     int          `json:"added"`
	Changed   int          `json:"changed"`
	Removed   int          `json:"removed"`
	Unchanged int          `json:"unchanged"`
	Failed    []fileFailed `json:"failed,omitempty"`
	// Skipped counts the files left out for their type, by extension
	// ("(none)" for a name without one), so none goes missing unseen.
	Skipped  map[string]int `json:"skipped,omitempty"`
	Passages int            `json:"passages"`
	Rebuilt  string         `json:"rebuilt,omitempty"` // why the index was built from scratch
	Seconds  float64        `json:"seconds"`
}

type fileFailed struct {
	Path  string `json:"path"`
	Error string `json:"error"`
}

// syncOptions are the limits of one run.
type syncOptions struct {
	MaxFiles     int
	MaxFileBytes int64
	ChunkChars   int
	OverlapChars int
	Walk         func(root string, fn fs.WalkDirFunc) error // the workspace walk (never enters the data dir)
	Rel          func(abs string) string                    // how results show a path
	Progress     func(done, total float64, msg string)
	Run          jail.Runner // runs pdftotext: the tool's Deps.Run
}

// run is o.Run, or the bare jail where none is given (tests of the index
// alone).
func (o syncOptions) run() jail.Runner {
	if o.Run == nil {
		return jail.Run
	}
	return o.Run
}

// walk is o.Walk, or a plain walk where no sandbox is given (tests of the
// index alone).
func (o syncOptions) walk(root string, fn fs.WalkDirFunc) error {
	if o.Walk == nil {
		return filepath.WalkDir(root, fn)
	}
	return o.Walk(root, fn)
}

// candidate is a source file found by the walk.
type candidate struct {
	abs  string
	info fs.FileInfo
}

// sync brings index k up to date with paths (nil: the recorded sources).
// A new or damaged index is built from scratch in a new generation and
// swapped in when done; an existing one is updated in place, only for new,
// changed (size or mtime, then content hash) and deleted files, with the
// update marker up while it runs. Searches keep running meanwhile. The
// caller holds k.write.
func (k *kbIndex) sync(ctx context.Context, paths []string, o syncOptions) (*syncReport, error) {
	began := time.Now()
	rep := &syncReport{Index: k.name}
	err := k.load()
	switch {
	case errors.Is(err, os.ErrNotExist):
		rep.Rebuilt = "new index"
	case errors.Is(err, errDamaged):
		rep.Rebuilt = err.Error()
	case err != nil:
		return nil, err
	}
	if paths == nil {
		paths = k.src.Paths
	}
	if len(paths) == 0 {
		return nil, fmt.Errorf("no sources recorded for index %q", k.name)
	}
	found, skipped, err := walkSources(paths, o)
	if err != nil {
		return nil, err
	}
	rep.Files, rep.Skipped = len(found), skipped

	idx, base, err := k.begin(paths, rep.Rebuilt != "")
	if err != nil {
		return nil, err
	}

	b := &batcher{idx: idx, batch: idx.NewBatch(), man: base, pending: map[string]*fileState{}}
	seen := map[string]bool{}
	var runErr error
	for i, f := range found {
		if runErr = ctx.Err(); runErr != nil {
			break
		}
		seen[f.abs] = true
		o.Progress(float64(i), float64(len(found)), o.Rel(f.abs))
		if runErr = b.file(ctx, f, o, rep); runErr != nil {
			break
		}
	}
	if runErr == nil {
		for _, abs := range slices.Sorted(maps.Keys(base.Files)) {
			if !seen[abs] {
				b.remove(abs, base.Files[abs].Chunks)
				rep.Removed++
			}
		}
	}
	// What went in is committed even when the run stopped early, so that the
	// next run carries on from there.
	if err := b.flush(); err != nil {
		return nil, errors.Join(runErr, err)
	}
	base.Updated = time.Now().UTC()
	if err := k.commit(base); err != nil {
		return nil, errors.Join(runErr, err)
	}
	k.mu.Lock()
	old := k.idx
	k.idx, k.man = idx, base
	k.mu.Unlock()
	if old != nil && old != idx {
		old.Close()
	}
	k.dropStaleGenerations(base.Generation)
	rep.Passages = base.Chunks
	rep.Seconds = time.Since(began).Seconds()
	return rep, runErr
}

// begin sets up a run: the index and manifest it starts from (a new
// generation when rebuilding), the sources recorded, the update marker up.
func (k *kbIndex) begin(paths []string, rebuild bool) (bleve.Index, *manifest, error) {
	idx := k.idx
	base := &manifest{Version: manifestVersion, Generation: 1, Files: map[string]fileState{}}
	if k.man != nil {
		base.Generation = k.man.Generation
	}
	if !rebuild {
		base.Files = maps.Clone(k.man.Files)
		base.Chunks = k.man.Chunks
	} else {
		base.Generation = k.nextGeneration()
		var err error
		if idx, err = newBleve(k.genDir(base.Generation)); err != nil {
			return nil, nil, fmt.Errorf("create index: %w", err)
		}
		idx.SetName(k.name)
	}
	if !slices.Equal(paths, k.src.Paths) || rebuild {
		src := sources{Paths: paths, Created: time.Now().UTC()}
		if !k.src.Created.IsZero() {
			src.Created = k.src.Created
		}
		if err := k.saveSources(src); err != nil {
			return nil, nil, err
		}
		k.src = src
	}
	if err := k.markWriting(); err != nil {
		return nil, nil, err
	}
	return idx, base, nil
}

// file brings one found file's passages up to date, counting it in rep; a
// file that cannot be read or extracted is reported and dropped. An error
// stops the run.
func (b *batcher) file(ctx context.Context, f candidate, o syncOptions, rep *syncReport) error {
	old, had := b.man.Files[f.abs]
	if had && old.Size == f.info.Size() && old.ModNano == f.info.ModTime().UnixNano() {
		rep.Unchanged++
		return nil
	}
	data, err := readFile(o.Rel(f.abs), f.abs, o.MaxFileBytes)
	if err != nil {
		rep.Failed = append(rep.Failed, fileFailed{o.Rel(f.abs), err.Error()})
		b.remove(f.abs, old.Chunks)
		return nil
	}
	sum := sha256.Sum256(data)
	st := fileState{Size: f.info.Size(), ModNano: f.info.ModTime().UnixNano(), SHA256: hex.EncodeToString(sum[:]), Format: formatOf(f.abs)}
	if had && old.SHA256 == st.SHA256 { // touched, not changed
		st.Chunks = old.Chunks
		b.touch(f.abs, st)
		rep.Unchanged++
		return nil
	}
	secs, err := extract(ctx, o.run(), f.abs, data)
	if err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		rep.Failed = append(rep.Failed, fileFailed{o.Rel(f.abs), err.Error()})
		b.remove(f.abs, old.Chunks)
		return nil
	}
	chunks := chunkSections(secs, o.ChunkChars, o.OverlapChars)
	if err := b.replace(f.abs, old.Chunks, st, chunks); err != nil {
		return err
	}
	if had {
		rep.Changed++
	} else {
		rep.Added++
	}
	return nil
}

// batcher groups index changes into bleve batches; a file's new state enters
// the manifest only with the batch that holds its passages.
type batcher struct {
	idx     bleve.Index
	batch   *bleve.Batch
	bytes   int
	man     *manifest
	pending map[string]*fileState // nil state: the file left the index
}

const batchBytes = 8 << 20

func (b *batcher) remove(abs string, chunks int) {
	for i := range chunks {
		b.batch.Delete(docID(abs, i))
	}
	b.pending[abs] = nil
}

func (b *batcher) touch(abs string, st fileState) { b.pending[abs] = &st }

func (b *batcher) replace(abs string, oldChunks int, st fileState, chunks []chunk) error {
	for i := len(chunks); i < oldChunks; i++ {
		b.batch.Delete(docID(abs, i))
	}
	for _, c := range chunks {
		err := b.batch.Index(docID(abs, c.Ord), passageDoc{File: abs, Ord: c.Ord, Page: c.Page,
			Heading: headingText(c.Heading), Start: c.Start, End: c.End, Text: c.Text})
		if err != nil {
			return err
		}
		b.bytes += len(c.Text)
	}
	st.Chunks = len(chunks)
	b.pending[abs] = &st
	if b.bytes >= batchBytes {
		return b.flush()
	}
	return nil
}

// flush applies the batch and then its files' states to the manifest.
func (b *batcher) flush() error {
	if b.batch.Size() > 0 {
		if err := b.idx.Batch(b.batch); err != nil {
			return fmt.Errorf("index batch: %w", err)
		}
		b.batch = b.idx.NewBatch() // scorch may still read the old one (Reset races)
	}
	for abs, st := range b.pending {
		b.man.Chunks -= b.man.Files[abs].Chunks
		if st == nil {
			delete(b.man.Files, abs)
			continue
		}
		b.man.Files[abs] = *st
		b.man.Chunks += st.Chunks
	}
	clear(b.pending)
	b.bytes = 0
	return nil
}

// walkSources lists the indexable files under paths (files and folders,
// absolute), sorted and without duplicates, and counts the other files by
// extension. Hidden files and folders and symbolic links are not followed;
// a file named directly must have a format knowledge_rag reads.
func walkSources(paths []string, o syncOptions) ([]candidate, map[string]int, error) {
	seen := map[string]bool{}
	var skipped map[string]int
	var out []candidate
	add := func(abs string, info fs.FileInfo) error {
		if seen[abs] {
			return nil
		}
		seen[abs] = true
		if len(out) >= o.MaxFiles {
			return fmt.Errorf("more than %d files to index (tools.knowledge_rag.max_files)", o.MaxFiles)
		}
		out = append(out, candidate{abs, info})
		return nil
	}
	for _, p := range paths {
		info, err := os.Stat(p)
		if err != nil {
			return nil, nil, fmt.Errorf("%s: %w", o.Rel(p), err)
		}
		if !info.IsDir() {
			if formatOf(p) == "" {
				return nil, nil, fmt.Errorf("%s: %w", o.Rel(p), errFormat)
			}
			if err := add(p, info); err != nil {
				return nil, nil, err
			}
			continue
		}
		err = o.walk(p, func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				if path == p {
					return err
				}
				return nil // an unreadable subfolder is left out
			}
			hidden := path != p && strings.HasPrefix(d.Name(), ".")
			if d.IsDir() {
				if hidden {
					return filepath.SkipDir
				}
				return nil
			}
			if hidden || !d.Type().IsRegular() {
				return nil
			}
			if formatOf(path) == "" {
				ext := strings.ToLower(filepath.Ext(d.Name()))
				if ext == "" {
					ext = "(none)"
				}
				if skipped == nil {
					skipped = map[string]int{}
				}
				skipped[ext]++
				return nil
			}
			info, err := d.Info()
			if err != nil {
				return nil
			}
			return add(path, info)
		})
		if err != nil {
			return nil, nil, err
		}
	}
	slices.SortFunc(out, func(a, b candidate) int { return strings.Compare(a.abs, b.abs) })
	return out, skipped, nil
}

var errFormat = errors.New("not a format knowledge_rag indexes (md, mdx, txt, html, pdf, docx)")
