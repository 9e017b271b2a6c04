package table

import (
	"bufio"
	"bytes"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"unicode/utf8"

	"golang.org/x/text/encoding/simplifiedchinese"
	"golang.org/x/text/encoding/unicode"
	"golang.org/x/text/transform"

	"github.com/clawbridge/clawbridge/internal/toolerr"
)

func (r *Reader) openCSV() error {
	f, err := os.Open(r.Path)
	if err != nil {
		return err
	}
	r.closer = f.Close
	br := bufio.NewReaderSize(f, 1<<16)
	head, _ := br.Peek(64 << 10)
	var in io.Reader = br
	switch {
	case bytes.HasPrefix(head, []byte{0xEF, 0xBB, 0xBF}):
		br.Discard(3)
		r.Encoding = "utf-8 (BOM)"
		head = head[3:]
	case bytes.HasPrefix(head, []byte{0xFF, 0xFE}), bytes.HasPrefix(head, []byte{0xFE, 0xFF}):
		dec := unicode.UTF16(unicode.LittleEndian, unicode.ExpectBOM).NewDecoder()
		in = transform.NewReader(br, dec)
		r.Encoding = "utf-16"
		head, _ = dec.Bytes(head[:len(head)&^1])
	case !validUTF8Prefix(head):
		in = transform.NewReader(br, simplifiedchinese.GB18030.NewDecoder())
		r.Encoding = "gbk/gb18030"
		head, _ = simplifiedchinese.GB18030.NewDecoder().Bytes(head[:max(0, bytes.LastIndexByte(head, '\n'))])
	default:
		r.Encoding = "utf-8"
	}
	cr := csv.NewReader(in)
	cr.Comma = sniffDelimiter(r.Path, head)
	cr.LazyQuotes = true
	cr.FieldsPerRecord = -1
	num := 0
	r.raw = func() ([]string, int, error) {
		rec, err := cr.Read()
		if err == io.EOF {
			return nil, 0, io.EOF
		}
		num++
		if err != nil {
			return nil, 0, toolerr.Invalidf("path", "check the quoting around that line", "%s: bad CSV at line %d: %v", filepath.Base(r.Path), num, err)
		}
		return rec, num, nil
	}
	return nil
}

// validUTF8Prefix checks a buffer that may end inside a character.
func validUTF8Prefix(b []byte) bool {
	for len(b) > 0 {
		r, size := utf8.DecodeRune(b)
		if r == utf8.RuneError && size <= 1 {
			return len(b) < utf8.UTFMax && !utf8.FullRune(b)
		}
		b = b[size:]
	}
	return true
}

func sniffDelimiter(p string, head []byte) rune {
	if strings.EqualFold(filepath.Ext(p), ".tsv") {
		return '\t'
	}
	lines := strings.SplitN(string(head), "\n", 11)
	if len(lines) > 10 {
		lines = lines[:10]
	}
	best, bestScore := ',', -1
	for _, d := range []rune{',', '\t', ';', '|'} {
		counts := map[int]int{}
		for _, l := range lines {
			if strings.TrimSpace(l) == "" {
				continue
			}
			counts[strings.Count(l, string(d))]++
		}
		// Score: how many lines share the most common non-zero count.
		score := 0
		for n, c := range counts {
			if n > 0 && c > score {
				score = c
			}
		}
		if score > bestScore {
			best, bestScore = d, score
		}
	}
	return best
}

// openJSON reads an array of objects (or an object holding one, or JSON
// lines) and keeps key order as first seen.
func (r *Reader) openJSON() error {
	f, err := os.Open(r.Path)
	if err != nil {
		return err
	}
	defer f.Close()
	r.Encoding = "utf-8"
	dec := json.NewDecoder(bufio.NewReader(f))
	dec.UseNumber()
	jr := &jsonRows{dec: dec, index: map[string]int{}, maxRows: r.limits.MaxRows, file: filepath.Base(r.Path)}
	t, err := dec.Token()
	if err != nil {
		return jr.bad(err.Error())
	}
	switch t {
	case json.Delim('['):
		err = jr.readArray()
	case json.Delim('{'):
		ext := strings.ToLower(filepath.Ext(r.Path))
		if ext == ".jsonl" || ext == ".ndjson" {
			err = jr.readLines()
		} else {
			err = jr.readWrapped()
		}
	default:
		err = jr.bad("the top level is not an array")
	}
	if err != nil {
		return err
	}
	keys, index, objs := jr.keys, jr.index, jr.objs
	header := make([]string, len(keys))
	copy(header, keys)
	i := 0
	first := true
	r.raw = func() ([]string, int, error) {
		if first {
			first = false
			return header, 0, nil
		}
		if i >= len(objs) {
			return nil, 0, io.EOF
		}
		row := make([]string, len(keys))
		for k, v := range objs[i] {
			row[index[k]] = v
		}
		objs[i] = nil
		i++
		return row, i, nil
	}
	return nil
}

// jsonRows collects JSON objects as rows, keeping key order as first seen.
type jsonRows struct {
	dec     *json.Decoder
	file    string
	maxRows int
	keys    []string
	index   map[string]int // key → column
	objs    []map[string]string
}

func (jr *jsonRows) bad(msg string) error {
	return toolerr.Invalidf("path", "give an array of objects, like [{\"name\": \"a\", \"value\": 1}, ...]", "%s: %s", jr.file, msg)
}

// readObject reads the members of an object whose '{' was read, and its '}'.
func (jr *jsonRows) readObject() error {
	dec := jr.dec
	obj := map[string]string{}
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return jr.bad(err.Error())
		}
		k, _ := t.(string)
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return jr.bad(err.Error())
		}
		if _, ok := jr.index[k]; !ok {
			jr.index[k] = len(jr.keys)
			jr.keys = append(jr.keys, k)
		}
		obj[k] = jsonCell(v)
	}
	if _, err := dec.Token(); err != nil { // '}'
		return jr.bad(err.Error())
	}
	jr.objs = append(jr.objs, obj)
	if len(jr.objs) > jr.maxRows {
		return errf(toolerr.CodeTooLarge, "", "more than %d objects", jr.maxRows)
	}
	return nil
}

// readArray reads the objects of an array whose '[' was read, and its ']'.
func (jr *jsonRows) readArray() error {
	for jr.dec.More() {
		t, err := jr.dec.Token()
		if err != nil {
			return jr.bad(err.Error())
		}
		if t != json.Delim('{') {
			return jr.bad(fmt.Sprintf("array element %d is not an object", len(jr.objs)+1))
		}
		if err := jr.readObject(); err != nil {
			return err
		}
	}
	_, err := jr.dec.Token()
	return err
}

// readLines reads JSON lines, the first line's '{' being read.
func (jr *jsonRows) readLines() error {
	if err := jr.readObject(); err != nil {
		return err
	}
	for jr.dec.More() {
		if t, err := jr.dec.Token(); err != nil || t != json.Delim('{') {
			return jr.bad("each line must be an object")
		}
		if err := jr.readObject(); err != nil {
			return err
		}
	}
	return nil
}

// readWrapped reads an object wrapping the rows, e.g. {"data": [...]},
// whose '{' was read: it takes the first array of objects.
func (jr *jsonRows) readWrapped() error {
	dec := jr.dec
	for dec.More() {
		if _, err := dec.Token(); err != nil {
			return jr.bad(err.Error())
		}
		t, err := dec.Token()
		if err != nil {
			return jr.bad(err.Error())
		}
		switch t {
		case json.Delim('['):
			if err := jr.readArray(); err != nil {
				return err
			}
			if len(jr.objs) > 0 {
				return nil
			}
		case json.Delim('{'):
			if err := jr.skipNested(); err != nil {
				return err
			}
		}
	}
	return jr.bad("no array of objects found")
}

// skipNested skips the rest of an object or array whose opening was read.
func (jr *jsonRows) skipNested() error {
	depth := 1
	for depth > 0 {
		t, err := jr.dec.Token()
		if err != nil {
			return jr.bad(err.Error())
		}
		switch t {
		case json.Delim('{'), json.Delim('['):
			depth++
		case json.Delim('}'), json.Delim(']'):
			depth--
		}
	}
	return nil
}

func jsonCell(v json.RawMessage) string {
	s := strings.TrimSpace(string(v))
	switch {
	case s == "null":
		return ""
	case strings.HasPrefix(s, `"`):
		var out string
		_ = json.Unmarshal(v, &out)
		return out
	}
	return s
}
