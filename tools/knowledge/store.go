package knowledge

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/analysis/analyzer/custom"
	"github.com/blevesearch/bleve/v2/analysis/analyzer/keyword"
	"github.com/blevesearch/bleve/v2/analysis/lang/cjk"
	"github.com/blevesearch/bleve/v2/analysis/lang/en"
	"github.com/blevesearch/bleve/v2/analysis/token/lowercase"
	"github.com/blevesearch/bleve/v2/analysis/token/porter"
	"github.com/blevesearch/bleve/v2/analysis/tokenizer/unicode"
	"github.com/blevesearch/bleve/v2/mapping"
	index "github.com/blevesearch/bleve_index_api"

	"github.com/clawbridge/clawbridge/internal/atomicfile"
)

// On disk, under <data_dir>/knowledge/<name>/:
//
//	sources.json   what the index covers (written when it is created or its
//	               sources change), so a damaged index can be rebuilt
//	manifest.json  the file states and the live generation, written last and
//	               atomically: an index without it was never finished
//	writing        present while an update is under way; found at open, it
//	               means the update died half-way and the index is rebuilt
//	gen-N/         the bleve index itself

const (
	manifestVersion = 1
	analyzerName    = "kb" // words (stemmed English) and CJK bigrams
)

// manifest is the committed state of one index.
type manifest struct {
	Version    int                  `json:"version"`
	Generation int                  `json:"generation"`
	Files      map[string]fileState `json:"files"` // by absolute path
	Chunks     int                  `json:"chunks"`
	Updated    time.Time            `json:"updated"`
}

// fileState is what the index knows of one source file, to skip it when it
// has not changed.
type fileState struct {
	Size    int64  `json:"size"`
	ModNano int64  `json:"mtime_ns"`
	SHA256  string `json:"sha256"`
	Chunks  int    `json:"chunks"`
	Format  string `json:"format"`
}

// sources is what an index covers: files and folders as absolute paths.
type sources struct {
	Paths   []string  `json:"paths"`
	Created time.Time `json:"created"`
}

var nameRE = regexp.MustCompile(`^[a-z0-9][a-z0-9_-]{0,63}$`)

// library holds the indexes of one data dir, each opened once per process.
type library struct {
	dir  string
	mu   sync.Mutex
	open map[string]*kbIndex
}

func newLibrary(dataDir string) *library {
	return &library{dir: filepath.Join(dataDir, "knowledge"), open: map[string]*kbIndex{}}
}

// kbIndex is one opened index. Searches hold mu for reading while they use
// idx; a swap of idx (rebuild) or remove takes it for writing. write admits
// one update at a time; bleve itself lets searches run while a batch goes in.
type kbIndex struct {
	name, dir string
	write     sync.Mutex
	mu        sync.RWMutex
	idx       bleve.Index // nil until opened or built
	man       *manifest
	src       sources
}

// handle returns the index's in-process handle (not yet opened).
func (l *library) handle(name string) *kbIndex {
	l.mu.Lock()
	defer l.mu.Unlock()
	k := l.open[name]
	if k == nil {
		k = &kbIndex{name: name, dir: filepath.Join(l.dir, name)}
		l.open[name] = k
	}
	return k
}

// forget drops a removed index's handle, so a new index of that name starts
// afresh.
func (l *library) forget(name string, k *kbIndex) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.open[name] == k {
		delete(l.open, name)
	}
}

// names lists the indexes on disk.
func (l *library) names() []string {
	ents, _ := os.ReadDir(l.dir)
	var out []string
	for _, e := range ents {
		if e.IsDir() && nameRE.MatchString(e.Name()) {
			out = append(out, e.Name())
		}
	}
	slices.Sort(out)
	return out
}

// Close closes every opened index (shutdown, tests).
func (l *library) Close() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	for _, k := range l.open {
		k.mu.Lock()
		if k.idx != nil {
			k.idx.Close()
			k.idx = nil
		}
		k.mu.Unlock()
	}
	return nil
}

// errDamaged means an index on disk is not a finished, consistent one.
var errDamaged = errors.New("index damaged")

// load opens the committed index on disk, checking it: a missing or
// unreadable manifest, a leftover update marker, a bleve index that does not
// open, or one whose document count disagrees with the manifest is
// errDamaged. os.ErrNotExist when there is no index of that name. Callers
// hold k.write.
func (k *kbIndex) load() error {
	if k.idx != nil {
		return nil
	}
	raw, err := os.ReadFile(filepath.Join(k.dir, "sources.json"))
	if errors.Is(err, os.ErrNotExist) {
		if _, statErr := os.Stat(k.dir); statErr != nil {
			return os.ErrNotExist
		}
	}
	if err != nil || json.Unmarshal(raw, &k.src) != nil || len(k.src.Paths) == 0 {
		return fmt.Errorf("%w: sources.json missing or unreadable", errDamaged)
	}
	if _, err := os.Stat(filepath.Join(k.dir, "writing")); err == nil {
		return fmt.Errorf("%w: an update did not finish", errDamaged)
	}
	var m manifest
	raw, err = os.ReadFile(filepath.Join(k.dir, "manifest.json"))
	if err != nil || json.Unmarshal(raw, &m) != nil || m.Version != manifestVersion || m.Generation < 1 {
		return fmt.Errorf("%w: manifest missing or unreadable", errDamaged)
	}
	idx, err := bleve.Open(k.genDir(m.Generation))
	if err != nil {
		return fmt.Errorf("%w: %v", errDamaged, err)
	}
	n, err := idx.DocCount()
	if err != nil || int(n) != m.Chunks {
		idx.Close()
		return fmt.Errorf("%w: %d passages in the index, %d in the manifest", errDamaged, n, m.Chunks)
	}
	idx.SetName(k.name)
	if m.Files == nil {
		m.Files = map[string]fileState{}
	}
	k.mu.Lock()
	k.idx, k.man = idx, &m
	k.mu.Unlock()
	k.dropStaleGenerations(m.Generation)
	return nil
}

func (k *kbIndex) genDir(n int) string { return filepath.Join(k.dir, "gen-"+strconv.Itoa(n)) }

// dropStaleGenerations removes generation dirs a crashed rebuild left.
func (k *kbIndex) dropStaleGenerations(keep int) {
	ents, _ := os.ReadDir(k.dir)
	for _, e := range ents {
		if n, ok := strings.CutPrefix(e.Name(), "gen-"); ok && n != strconv.Itoa(keep) {
			os.RemoveAll(filepath.Join(k.dir, e.Name()))
		}
	}
}

// nextGeneration numbers a new bleve dir past every one on disk.
func (k *kbIndex) nextGeneration() int {
	next := 1
	ents, _ := os.ReadDir(k.dir)
	for _, e := range ents {
		if n, ok := strings.CutPrefix(e.Name(), "gen-"); ok {
			if v, err := strconv.Atoi(n); err == nil && v >= next {
				next = v + 1
			}
		}
	}
	return next
}

// commit writes the manifest atomically, then clears the update marker.
func (k *kbIndex) commit(m *manifest) error {
	raw, err := json.Marshal(m)
	if err != nil {
		return err
	}
	if err := atomicfile.WriteFile(filepath.Join(k.dir, "manifest.json"), raw, 0o600); err != nil {
		return err
	}
	if err := os.Remove(filepath.Join(k.dir, "writing")); err != nil && !errors.Is(err, os.ErrNotExist) {
		return err
	}
	return nil
}

// markWriting records that an update has begun, before the index changes.
func (k *kbIndex) markWriting() error {
	return atomicfile.WriteFile(filepath.Join(k.dir, "writing"), []byte(time.Now().UTC().Format(time.RFC3339)), 0o600)
}

// saveSources records what the index covers.
func (k *kbIndex) saveSources(s sources) error {
	if err := os.MkdirAll(k.dir, 0o700); err != nil {
		return err
	}
	raw, err := json.Marshal(s)
	if err != nil {
		return err
	}
	return atomicfile.WriteFile(filepath.Join(k.dir, "sources.json"), raw, 0o600)
}

// newBleve creates an empty bleve index at dir with the passage mapping.
func newBleve(dir string) (bleve.Index, error) {
	m, err := passageMapping()
	if err != nil {
		return nil, err
	}
	if err := os.MkdirAll(filepath.Dir(dir), 0o700); err != nil {
		return nil, err
	}
	return bleve.New(dir, m)
}

// passageMapping indexes a passage's text and heading path with the kb
// analyzer (Unicode words, lower-cased, English stop words out and Porter
// stems; CJK runs as overlapping bigrams), scored with BM25; the file is a
// keyword for filters; page and offsets are stored only.
func passageMapping() (mapping.IndexMapping, error) {
	im := bleve.NewIndexMapping()
	im.ScoringModel = index.BM25Scoring
	err := im.AddCustomAnalyzer(analyzerName, map[string]any{
		"type":          custom.Name,
		"tokenizer":     unicode.Name,
		"token_filters": []string{cjk.WidthName, lowercase.Name, en.StopName, porter.Name, cjk.BigramName},
	})
	if err != nil {
		return nil, err
	}
	im.DefaultAnalyzer = analyzerName
	text := bleve.NewTextFieldMapping()
	text.Analyzer = analyzerName
	text.Store = true
	text.IncludeTermVectors = true // term locations, for snippets
	kw := bleve.NewKeywordFieldMapping()
	kw.Analyzer = keyword.Name
	stored := bleve.NewNumericFieldMapping()
	stored.Index = false
	storedText := bleve.NewTextFieldMapping()
	storedText.Index = false
	dm := bleve.NewDocumentStaticMapping()
	dm.AddFieldMappingsAt("text", text)
	dm.AddFieldMappingsAt("heading", text)
	dm.AddFieldMappingsAt("file", kw)
	for _, f := range []string{"ord", "page", "start", "end"} {
		dm.AddFieldMappingsAt(f, stored)
	}
	im.DefaultMapping = dm
	return im, nil
}

// passageDoc is what bleve stores for one chunk.
type passageDoc struct {
	File    string `json:"file"`
	Ord     int    `json:"ord"`
	Page    int    `json:"page"`
	Heading string `json:"heading"`
	Start   int    `json:"start"`
	End     int    `json:"end"`
	Text    string `json:"text"`
}

// docID names a chunk: its file and position.
func docID(file string, ord int) string { return file + "#" + strconv.Itoa(ord) }

// dirSize is the bytes an index takes on disk.
func dirSize(dir string) int64 {
	var n int64
	filepath.WalkDir(dir, func(_ string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			if fi, err := d.Info(); err == nil {
				n += fi.Size()
			}
		}
		return nil
	})
	return n
}
