// Package diary is the `diary` tool: journal entries in the store, each
// with a date, text, mood and tags. update keeps the text it replaces as a
// numbered version; delete moves an entry (with its versions) to the
// trash, restore brings it back. search matches every query word (Latin
// words case-folded, Chinese as character bigrams, so 旅行 finds 去旅行了).
// export writes Markdown, one file or one per month. It does not encrypt
// entries beyond what the data dir's permissions give.
package diary

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"
	"unicode"

	"github.com/clawbridge/clawbridge/internal/config"
	"github.com/clawbridge/clawbridge/internal/records"
	"github.com/clawbridge/clawbridge/internal/sandbox"
	"github.com/clawbridge/clawbridge/internal/wording"
	"github.com/clawbridge/clawbridge/internal/zone"
	"github.com/clawbridge/clawbridge/tools/tool"
)

// Config is the `tools.diary` section.
type Config struct {
	// Timezone is the IANA zone "today" is counted in ("": the system's).
	Timezone string `yaml:"timezone"`
	// MaxChars bounds one entry's text.
	MaxChars int `yaml:"max_chars"`
}

// DefaultConfig: entries up to 100,000 characters.
func DefaultConfig() Config { return Config{MaxChars: 100_000} }

// Validate checks the section.
func (c *Config) Validate() error {
	_, zerr := zone.Load("timezone", c.Timezone)
	return errors.Join(zerr, config.AtLeast("max_chars", c.MaxChars, 1))
}

var migrations = []records.Migration{{Version: 1, Stmts: []string{
	`CREATE TABLE IF NOT EXISTS diary_entries (
		id TEXT PRIMARY KEY, day TEXT NOT NULL, text TEXT NOT NULL, mood TEXT NOT NULL, tags TEXT NOT NULL,
		version INTEGER NOT NULL, created_at BIGINT NOT NULL, updated_at BIGINT NOT NULL)`,
	`CREATE INDEX IF NOT EXISTS diary_entries_day ON diary_entries (day)`,
	`CREATE TABLE IF NOT EXISTS diary_versions (
		entry_id TEXT NOT NULL, version INTEGER NOT NULL, day TEXT NOT NULL, text TEXT NOT NULL, mood TEXT NOT NULL,
		tags TEXT NOT NULL, saved_at BIGINT NOT NULL, PRIMARY KEY (entry_id, version))`,
}}}

// entry is one row; a version is an entry as it was before an update.
type entry struct {
	ID      string   `json:"id"`
	Day     string   `json:"date"`
	Text    string   `json:"text"`
	Mood    string   `json:"mood,omitempty"`
	Tags    []string `json:"tags,omitempty"`
	Version int      `json:"version"`
	Created int64    `json:"created_at"`
	Updated int64    `json:"updated_at"`
}

type trashed struct {
	Entry    entry    `json:"entry"`
	Versions []*entry `json:"versions,omitempty"`
}

const cols = `id, day, text, mood, tags, version, created_at, updated_at`

func scan(r records.Scanner) (*entry, error) {
	e := &entry{}
	var tags string
	if err := r.Scan(&e.ID, &e.Day, &e.Text, &e.Mood, &tags, &e.Version, &e.Created, &e.Updated); err != nil {
		return nil, err
	}
	return e, json.Unmarshal([]byte(tags), &e.Tags)
}

func tagsJSON(t []string) string {
	if t == nil {
		t = []string{}
	}
	b, _ := json.Marshal(t)
	return string(b)
}

type diary struct {
	cfg Config
	st  tool.Records
	sb  *sandbox.Sandbox
	loc *time.Location
	now func() time.Time
}

// New builds the diary tool from the tools.diary section.
func New(d *tool.Deps) (tool.Tool, error) { return lifecycle.New(d) }

// lifecycle decodes the tools.diary section over the defaults, then
// provisions; its Build keeps the tool's state, which the tests drive.
var lifecycle = tool.Stateful[Config, *diary]{Name: "diary", Defaults: DefaultConfig, Provision: provision}

func provision(d *tool.Deps, cfg Config) (*diary, tool.Tool, error) {
	loc, err := d.OpenRecords("diary", cfg.Timezone, migrations...)
	if err != nil {
		return nil, tool.Tool{}, err
	}
	x := &diary{cfg: cfg, st: d.Store, sb: d.Sandbox, loc: loc, now: time.Now}
	id := tool.Param{Name: "id", Type: tool.String, Required: true, Description: "The entry id (from add, list or search)."}
	date := tool.Param{Name: "date", Type: tool.String, Description: "YYYY-MM-DD (default today)."}
	text := tool.Param{Name: "text", Type: tool.String, Private: true, Description: "The entry."}
	mood := tool.Param{Name: "mood", Type: tool.String, Description: "How the day felt (happy, tired, 开心 ...)."}
	tags := tool.Param{Name: "tags", Type: tool.Array, Items: &tool.Param{Type: tool.String}, Description: "Tags (travel, work ...)."}
	from := tool.Param{Name: "from", Type: tool.String, Description: "First day (YYYY-MM-DD or YYYY-MM)."}
	to := tool.Param{Name: "to", Type: tool.String, Description: "Last day, inclusive (YYYY-MM-DD or YYYY-MM)."}
	tag := tool.Param{Name: "tag", Type: tool.String, Description: "Only entries with this tag."}
	addText := text
	addText.Required = true
	t := tool.Tool{
		Name:  "diary",
		Title: "Diary",
		Description: "Personal journal: add, read, list, search, update (previous versions kept) and delete entries with date, " +
			"mood and tags; export to Markdown.",
		Actions: []tool.Action{
			{Name: "add", Description: "Write an entry.", Level: tool.Write, Timeout: tool.Fast, Handler: x.add, Params: []tool.Param{date, addText, mood, tags}},
			{Name: "get", Description: "An entry by id, or the entries of one date; with versions, its earlier texts.", Level: tool.Read, Timeout: tool.Fast, Idempotent: true, Handler: x.get, Params: []tool.Param{
				{Name: "id", Type: tool.String, Description: "The entry id."}, date,
				{Name: "versions", Type: tool.Boolean, Default: false, Description: "Include the versions an update replaced."}}},
			{Name: "list", Description: "Entries in a range (text shortened).", Level: tool.Read, Timeout: tool.Fast, Idempotent: true, Handler: x.list, Params: []tool.Param{from, to, tag, mood}},
			{Name: "search", Description: "Entries containing every word of query (Chinese by character pairs).", Level: tool.Read, Timeout: tool.Fast, Idempotent: true, Handler: x.search, Params: []tool.Param{
				{Name: "query", Type: tool.String, Required: true, Description: "Words to find."}, from, to, tag}},
			{Name: "update", Description: "Change an entry; the previous text is kept as a version.", Level: tool.Write, Timeout: tool.Fast, Handler: x.update, Params: []tool.Param{id, date, text, mood, tags}},
			{Name: "delete", Description: "Delete an entry to the trash.", Level: tool.Write, Timeout: tool.Fast, Handler: x.delete, Params: []tool.Param{id}},
			{Name: "restore", Description: "Bring a deleted entry back.", Level: tool.Write, Timeout: tool.Fast, Handler: x.restore, Params: []tool.Param{id}},
			{Name: "export", Description: "Export entries to Markdown: one file, or one per month in a folder.", Level: tool.Write, Timeout: tool.Normal, Handler: x.export, Params: []tool.Param{
				from, to,
				{Name: "per_month", Type: tool.Boolean, Default: false, Description: "One file per month (YYYY-MM.md) in the output folder."},
				tool.OutputParam("Default outputs/diary.md."),
				{Name: "output_dir", Type: tool.String, Description: "With per_month: the folder (default outputs/diary)."},
				tool.Overwrite}},
		},
		Examples: []string{
			"write today's journal entry",
			"what did I write in my diary last week",
			"tag today's entry as travel",
			"export my diary to markdown",
			"写今天的日记",
			"看看我上个月的日记",
			"记录一下今天的心情",
			"搜索日记里提到旅行的内容",
		},
	}
	return x, t, nil
}

// kind is what the records skeleton calls a diary entry.
var kind = records.Kind{Tool: "diary", Component: "diary", Item: "entry", Noun: "diary entry", Hint: "list or search shows the entries and their ids"}

func (x *diary) needStore() error { return kind.NeedStore(x.st) }

// fill applies the given fields to e, checking each.
func (x *diary) fill(e *entry, a tool.Args) error {
	if a.Has("date") {
		d, err := records.Day("date", a.String("date"))
		if err != nil {
			return err
		}
		e.Day = d
	}
	if a.Has("text") {
		e.Text = strings.TrimSpace(a.String("text"))
		if e.Text == "" {
			return tool.Invalid("text", "text is empty", "write what happened")
		}
		if n := len([]rune(e.Text)); n > x.cfg.MaxChars {
			return tool.Invalid("text", fmt.Sprintf("text is %d characters, over %d", n, x.cfg.MaxChars), "split it, or raise tools.diary.max_chars")
		}
	}
	if a.Has("mood") {
		e.Mood = strings.TrimSpace(a.String("mood"))
	}
	if a.Has("tags") {
		e.Tags = nil
		for _, t := range a.Strings("tags") {
			t = strings.TrimSpace(strings.TrimPrefix(t, "#"))
			if t == "" {
				return tool.Invalid("tags", "a tag is empty", "")
			}
			if !slices.Contains(e.Tags, t) {
				e.Tags = append(e.Tags, t)
			}
		}
	}
	return nil
}

func view(e *entry, full bool) map[string]any {
	v := map[string]any{"id": e.ID, "date": e.Day, "version": e.Version}
	if full {
		v["text"] = e.Text
	} else {
		r := []rune(e.Text)
		if len(r) > 120 {
			r = append(r[:120], '…')
		}
		v["text"] = string(r)
	}
	if e.Mood != "" {
		v["mood"] = e.Mood
	}
	if len(e.Tags) > 0 {
		v["tags"] = e.Tags
	}
	return v
}

func (x *diary) add(ctx context.Context, call *tool.Call) (*tool.Result, error) {
	if err := x.needStore(); err != nil {
		return nil, err
	}
	now := x.now()
	e := &entry{ID: records.NewID("d"), Day: now.In(x.loc).Format(records.DayLayout), Version: 1, Created: now.UnixMilli(), Updated: now.UnixMilli()}
	if err := x.fill(e, call.Args); err != nil {
		return nil, err
	}
	if err := x.st.Tx(ctx, func(tx *sql.Tx) error { return insertEntry(tx, e) }); err != nil {
		return nil, err
	}
	return &tool.Result{Summary: fmt.Sprintf("Wrote the entry for %s (%s).", e.Day, e.ID), Data: view(e, false)}, nil
}

func getEntry(q records.Querier, id string) (*entry, error) {
	return scan(q.QueryRow(`SELECT `+cols+` FROM diary_entries WHERE id = $1`, id))
}

func versions(q interface {
	Query(string, ...any) (*sql.Rows, error)
}, id string) ([]*entry, error) {
	rows, err := q.Query(`SELECT entry_id, day, text, mood, tags, version, saved_at, saved_at FROM diary_versions WHERE entry_id = $1 ORDER BY version`, id)
	return records.Collect(rows, err, scan)
}

func (x *diary) get(ctx context.Context, call *tool.Call) (*tool.Result, error) {
	if err := x.needStore(); err != nil {
		return nil, err
	}
	a := call.Args
	field, err := a.ExactlyOne("give the entry's id, or a date", "id", "date")
	if err != nil {
		return nil, err
	}
	var es []*entry
	if field == "id" {
		e, err := getEntry(x.st.Read(), a.String("id"))
		if err != nil {
			return nil, kind.Found(a.String("id"), err)
		}
		es = []*entry{e}
	} else {
		d, err := records.Day("date", a.String("date"))
		if err != nil {
			return nil, err
		}
		if es, err = x.load(d, records.AddDays(d, 1), ""); err != nil {
			return nil, err
		}
	}
	out := []map[string]any{}
	for _, e := range es {
		v := view(e, true)
		if a.Bool("versions", false) {
			vs, err := versions(x.st.Read(), e.ID)
			if err != nil {
				return nil, err
			}
			var old []map[string]any
			for _, v := range vs {
				old = append(old, view(v, true))
			}
			v["versions"] = old
		}
		out = append(out, v)
	}
	return &tool.Result{Summary: fmt.Sprintf("%s.", wording.Count(len(out), "entry", "entries")), Data: map[string]any{"entries": out}}, nil
}

// loadRange reads the entries having tag in the range a's from and to
// give (days or months, to inclusive).
func (x *diary) loadRange(a tool.Args, tag string) ([]*entry, error) {
	from, to, err := records.Range(a.String("from"), a.String("to"))
	if err != nil {
		return nil, err
	}
	return x.load(from, to, tag)
}

// load reads entries with day in [from, to) (either may be "") having tag.
func (x *diary) load(from, to, tag string) ([]*entry, error) {
	q, args := `SELECT `+cols+` FROM diary_entries WHERE 1 = 1`, []any{}
	if from != "" {
		args = append(args, from)
		q += fmt.Sprintf(" AND day >= $%d", len(args))
	}
	if to != "" {
		args = append(args, to)
		q += fmt.Sprintf(" AND day < $%d", len(args))
	}
	rows, err := x.st.Read().Query(q+` ORDER BY day, created_at, id`, args...)
	es, err := records.Collect(rows, err, scan)
	if err != nil || tag == "" {
		return es, err
	}
	return slices.DeleteFunc(es, func(e *entry) bool { return !slices.Contains(e.Tags, tag) }), nil
}

// find is the short views of the entries of list and search: those in a's
// range having a's tag that keep accepts.
func (x *diary) find(a tool.Args, keep func(*entry) bool) ([]map[string]any, error) {
	es, err := x.loadRange(a, a.String("tag"))
	if err != nil {
		return nil, err
	}
	out := []map[string]any{}
	for _, e := range es {
		if keep(e) {
			out = append(out, view(e, false))
		}
	}
	return out, nil
}

func (x *diary) list(ctx context.Context, call *tool.Call) (*tool.Result, error) {
	if err := x.needStore(); err != nil {
		return nil, err
	}
	mood := call.Args.String("mood")
	out, err := x.find(call.Args, func(e *entry) bool { return mood == "" || e.Mood == mood })
	if err != nil {
		return nil, err
	}
	return &tool.Result{Summary: fmt.Sprintf("%s.", wording.Count(len(out), "entry", "entries")), Data: map[string]any{"entries": out}}, nil
}

// terms splits text into search terms: Latin/digit words lowercased, and
// each run of Han characters as its bigrams (a single character alone).
func terms(s string) []string {
	var out []string
	var word []rune
	var han []rune
	flush := func() {
		if len(word) > 0 {
			out = append(out, strings.ToLower(string(word)))
			word = word[:0]
		}
		if len(han) == 1 {
			out = append(out, string(han))
		}
		for i := 0; i+1 < len(han); i++ {
			out = append(out, string(han[i:i+2]))
		}
		han = han[:0]
	}
	for _, r := range s {
		switch {
		case unicode.Is(unicode.Han, r):
			if len(word) > 0 {
				out = append(out, strings.ToLower(string(word)))
				word = word[:0]
			}
			han = append(han, r)
		case unicode.IsLetter(r) || unicode.IsDigit(r):
			if len(han) > 0 {
				w := word
				word = nil
				flush()
				word = w
			}
			word = append(word, r)
		default:
			flush()
		}
	}
	flush()
	return out
}

// matches: every query term is among the text's terms (a single Han
// character matches any bigram holding it).
func matches(q []string, text []string) bool {
	have := map[string]bool{}
	for _, t := range text {
		have[t] = true
		for _, r := range t {
			if unicode.Is(unicode.Han, r) {
				have[string(r)] = true
			}
		}
	}
	for _, t := range q {
		if !have[t] {
			return false
		}
	}
	return len(q) > 0
}

func (x *diary) search(ctx context.Context, call *tool.Call) (*tool.Result, error) {
	if err := x.needStore(); err != nil {
		return nil, err
	}
	q := terms(call.Args.String("query"))
	if len(q) == 0 {
		return nil, tool.Invalid("query", "query has no words", "give words to find")
	}
	out, err := x.find(call.Args, func(e *entry) bool {
		return matches(q, terms(e.Text+" "+e.Mood+" "+strings.Join(e.Tags, " ")))
	})
	if err != nil {
		return nil, err
	}
	return &tool.Result{Summary: fmt.Sprintf("%s %q.", wording.Count(len(out), "entry matches", "entries match"), call.Args.String("query")), Data: map[string]any{"entries": out}}, nil
}

func (x *diary) update(ctx context.Context, call *tool.Call) (*tool.Result, error) {
	a := call.Args
	if !a.Has("date") && !a.Has("text") && !a.Has("mood") && !a.Has("tags") {
		return nil, tool.Invalid("text", "nothing to change", "give text, date, mood or tags")
	}
	e, err := records.Change(ctx, x.st, kind, a.String("id"), getEntry, func(tx *sql.Tx, e *entry) error {
		old := *e
		if err := x.fill(e, a); err != nil {
			return err
		}
		if err := insertVersion(tx, e.ID, old); err != nil {
			return err
		}
		e.Version++
		e.Updated = x.now().UnixMilli()
		_, err := tx.Exec(`UPDATE diary_entries SET day = $2, text = $3, mood = $4, tags = $5, version = $6, updated_at = $7 WHERE id = $1`,
			e.ID, e.Day, e.Text, e.Mood, tagsJSON(e.Tags), e.Version, e.Updated)
		return err
	})
	if err != nil {
		return nil, err
	}
	return &tool.Result{Summary: fmt.Sprintf("Updated %s (now version %d; version %d kept).", e.ID, e.Version, e.Version-1), Data: view(e, false)}, nil
}

func insertEntry(tx *sql.Tx, e *entry) error {
	_, err := tx.Exec(`INSERT INTO diary_entries (`+cols+`) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`, e.ID, e.Day, e.Text, e.Mood, tagsJSON(e.Tags), e.Version, e.Created, e.Updated)
	return err
}

// insertVersion keeps v, an earlier state of entry id.
func insertVersion(tx *sql.Tx, id string, v entry) error {
	_, err := tx.Exec(`INSERT INTO diary_versions (entry_id, version, day, text, mood, tags, saved_at) VALUES ($1, $2, $3, $4, $5, $6, $7)`,
		id, v.Version, v.Day, v.Text, v.Mood, tagsJSON(v.Tags), v.Updated)
	return err
}

func (x *diary) delete(ctx context.Context, call *tool.Call) (*tool.Result, error) {
	id := call.Args.String("id")
	e, err := records.Change(ctx, x.st, kind, id, getEntry, func(tx *sql.Tx, e *entry) error {
		vs, err := versions(tx, id)
		if err != nil {
			return err
		}
		return kind.Delete(tx, id, e.Day, trashed{Entry: *e, Versions: vs}, `DELETE FROM diary_versions WHERE entry_id = $1`, `DELETE FROM diary_entries WHERE id = $1`)
	})
	if err != nil {
		return nil, err
	}
	return &tool.Result{Summary: fmt.Sprintf("Deleted the %s entry (%s) to the trash; restore with its id.", e.Day, id), Data: map[string]any{"id": id}}, nil
}

func (x *diary) restore(ctx context.Context, call *tool.Call) (*tool.Result, error) {
	id := call.Args.String("id")
	var t trashed
	err := kind.Restore(ctx, x.st, id, &t, func(tx *sql.Tx) error {
		if err := insertEntry(tx, &t.Entry); err != nil {
			return err
		}
		for _, v := range t.Versions {
			if err := insertVersion(tx, t.Entry.ID, *v); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return &tool.Result{Summary: fmt.Sprintf("Restored the %s entry (%s).", t.Entry.Day, id), Data: view(&t.Entry, false)}, nil
}

// markdown renders entries, each under a heading with its date.
func markdown(title string, es []*entry) []byte {
	var b bytes.Buffer
	fmt.Fprintf(&b, "# %s\n", title)
	for _, e := range es {
		fmt.Fprintf(&b, "\n## %s\n\n", e.Day)
		var meta []string
		if e.Mood != "" {
			meta = append(meta, "Mood: "+e.Mood)
		}
		if len(e.Tags) > 0 {
			meta = append(meta, "Tags: #"+strings.Join(e.Tags, " #"))
		}
		if len(meta) > 0 {
			fmt.Fprintf(&b, "*%s*\n\n", strings.Join(meta, " · "))
		}
		b.WriteString(e.Text + "\n")
	}
	return b.Bytes()
}

func (x *diary) export(ctx context.Context, call *tool.Call) (*tool.Result, error) {
	if err := x.needStore(); err != nil {
		return nil, err
	}
	es, err := x.loadRange(call.Args, "")
	if err != nil {
		return nil, err
	}
	if !call.Args.Bool("per_month", false) {
		out, err := tool.PlanOutput(x.sb, call.Args, tool.Output{Stem: "diary", Exts: []string{".md"}})
		if err != nil {
			return nil, err
		}
		f, err := out.Write(".md", markdown("Diary", es))
		if err != nil {
			return nil, err
		}
		return &tool.Result{Summary: fmt.Sprintf("Exported %s to %s.", wording.Count(len(es), "entry", "entries"), x.sb.Rel(f.Path)), Data: map[string]any{"entries": len(es), "path": x.sb.Rel(f.Path)}, Files: []tool.File{f}}, nil
	}
	dir, err := tool.PlanOutputDir(x.sb, call.Args, tool.Output{Stem: "diary", Exts: []string{""}})
	if err != nil {
		return nil, err
	}
	months := map[string][]*entry{}
	for _, e := range es {
		months[e.Day[:7]] = append(months[e.Day[:7]], e)
	}
	names := slices.Sorted(maps.Keys(months))
	plans := make([]*tool.Outputs, len(names))
	for i, m := range names { // every file planned (and refused) before any is written
		if plans[i], err = tool.PlanFileIn(x.sb, call.Args, "output_dir", dir, m+".md"); err != nil {
			return nil, err
		}
	}
	var files []tool.File
	var paths []string
	for i, m := range names {
		f, err := plans[i].Write(".md", markdown("Diary "+m, months[m]))
		if err != nil {
			return nil, err
		}
		files, paths = append(files, f), append(paths, x.sb.Rel(f.Path))
	}
	return &tool.Result{Summary: fmt.Sprintf("Exported %s to %s in %s.", wording.Count(len(es), "entry", "entries"), wording.Count(len(files), "monthly file", "monthly files"), x.sb.Rel(dir)),
		Data: map[string]any{"entries": len(es), "dir": x.sb.Rel(dir), "paths": paths}, Files: files}, nil
}
