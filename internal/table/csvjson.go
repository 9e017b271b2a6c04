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
			return nil, 0, errf(toolerr.CodeInvalid, "check the quoting around that line", "%s: bad CSV at line %d: %v", filepath.Base(r.Path), num, err)
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
	var keys []string
	index := map[string]int{}
	var objs []map[string]string
	bad := func(msg string) error {
		return errf(toolerr.CodeInvalid, "give an array of objects, like [{\"name\": \"a\", \"value\": 1}, ...]", "%s: %s", filepath.Base(r.Path), msg)
	}
	readObject := func() error {
		obj := map[string]string{}
		for dec.More() {
			t, err := dec.Token()
			if err != nil {
				return bad(err.Error())
			}
			k, _ := t.(string)
			var v json.RawMessage
			if err := dec.Decode(&v); err != nil {
				return bad(err.Error())
			}
			if _, ok := index[k]; !ok {
				index[k] = len(keys)
				keys = append(keys, k)
			}
			obj[k] = jsonCell(v)
		}
		if _, err := dec.Token(); err != nil { // '}'
			return bad(err.Error())
		}
		objs = append(objs, obj)
		if len(objs) > r.limits.MaxRows {
			return errf(toolerr.CodeTooLarge, "", "more than %d objects", r.limits.MaxRows)
		}
		return nil
	}
	readArray := func() error {
		for dec.More() {
			t, err := dec.Token()
			if err != nil {
				return bad(err.Error())
			}
			if t != json.Delim('{') {
				return bad(fmt.Sprintf("array element %d is not an object", len(objs)+1))
			}
			if err := readObject(); err != nil {
				return err
			}
		}
		_, err := dec.Token()
		return err
	}
	t, err := dec.Token()
	if err != nil {
		return bad(err.Error())
	}
	switch t {
	case json.Delim('['):
		if err := readArray(); err != nil {
			return err
		}
	case json.Delim('{'):
		ext := strings.ToLower(filepath.Ext(r.Path))
		if ext == ".jsonl" || ext == ".ndjson" {
			if err := readObject(); err != nil {
				return err
			}
			for dec.More() {
				if t, err := dec.Token(); err != nil || t != json.Delim('{') {
					return bad("each line must be an object")
				}
				if err := readObject(); err != nil {
					return err
				}
			}
			break
		}
		// An object wrapping the rows, e.g. {"data": [...]}: take the first
		// array of objects.
		found := false
		for dec.More() && !found {
			if _, err := dec.Token(); err != nil {
				return bad(err.Error())
			}
			t, err := dec.Token()
			if err != nil {
				return bad(err.Error())
			}
			if t == json.Delim('[') {
				if err := readArray(); err != nil {
					return err
				}
				found = len(objs) > 0
			} else if t == json.Delim('{') {
				var skip json.RawMessage
				_ = skip
				depth := 1
				for depth > 0 {
					t, err := dec.Token()
					if err != nil {
						return bad(err.Error())
					}
					switch t {
					case json.Delim('{'), json.Delim('['):
						depth++
					case json.Delim('}'), json.Delim(']'):
						depth--
					}
				}
			}
		}
		if !found {
			return bad("no array of objects found")
		}
	default:
		return bad("the top level is not an array")
	}
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
