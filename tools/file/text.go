package file

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"golang.org/x/text/encoding/unicode"
	"golang.org/x/text/transform"

	"github.com/clawbridge/clawbridge/internal/atomicfile"
	"github.com/clawbridge/clawbridge/internal/trash"
	"github.com/clawbridge/clawbridge/internal/wording"
	"github.com/clawbridge/clawbridge/tools/tool"
)

const maxLineBytes = 32 << 10 // longer lines are cut in read output

// openText opens a regular file and detects its encoding; binary files and
// directories are refused with an error that says what to use instead.
func (ft *fileTool) openText(field, p, forced string) (f *os.File, s sniffed, info fs.FileInfo, abs string, err error) {
	abs, err = ft.resolve(field, p)
	if err != nil {
		return nil, s, nil, "", err
	}
	info, err = os.Stat(abs)
	if err != nil {
		return nil, s, nil, "", statErr(field, p, err)
	}
	if info.IsDir() {
		return nil, s, nil, "", tool.Invalidf(field, "use action=list or tree for directories", "%s is a directory", p)
	}
	if !info.Mode().IsRegular() {
		return nil, s, nil, "", tool.Invalidf(field, "", "%s is not a regular file", p)
	}
	f, err = os.Open(abs)
	if err != nil {
		return nil, s, nil, "", statErr(field, p, err)
	}
	sample, full, err := readSample(f, sampleSize)
	if err != nil {
		f.Close()
		return nil, s, nil, "", fmt.Errorf("read %s: %w", p, err)
	}
	s = detect(sample, full)
	if forced != "" && forced != "auto" {
		s = sniffed{Encoding: forced, BOM: bomFor(s, forced)}
	}
	if s.Binary {
		f.Close()
		return nil, s, nil, "", tool.Invalidf(field,
			"this is not a text file: use action=stat or hash, unzip for archives, or a document tool (pdf, docx, xlsx)",
			"%s is a binary file", p)
	}
	if s.Encoding == "" {
		f.Close()
		return nil, s, nil, "", tool.Invalidf("encoding",
			"pass encoding=latin1 (or another listed encoding) to read it anyway",
			"%s is neither valid UTF-8 nor GB18030 text", p)
	}
	if _, err := f.Seek(int64(s.BOM), io.SeekStart); err != nil {
		f.Close()
		return nil, s, nil, "", fmt.Errorf("read %s: %w", p, err)
	}
	return f, s, info, abs, nil
}

// readLine reads one line without its terminator, keeping at most max
// bytes; ok is false at the end of input.
func readLine(r *bufio.Reader, max int) (line string, cut, ok bool, err error) {
	var buf []byte
	got := false
	for {
		frag, e := r.ReadSlice('\n')
		if len(frag) > 0 {
			got = true
		}
		if e == nil {
			frag = frag[:len(frag)-1]
		}
		room := max - len(buf)
		if len(frag) > room {
			if room > 0 {
				buf = append(buf, frag[:room]...)
			}
			cut = true
		} else {
			buf = append(buf, frag...)
		}
		if e == bufio.ErrBufferFull {
			continue
		}
		if e != nil && e != io.EOF {
			return "", false, false, e
		}
		if e == io.EOF && !got {
			return "", false, false, nil
		}
		break
	}
	if cut {
		return strings.ToValidUTF8(string(buf), "\uFFFD"), true, true, nil
	}
	return string(bytes.TrimSuffix(buf, []byte("\r"))), false, true, nil
}

func (ft *fileTool) read(ctx context.Context, c *tool.Call) (*tool.Result, error) {
	p := c.Args.String("path")
	f, s, info, abs, err := ft.openText("path", p, c.Args.String("encoding"))
	if err != nil {
		return nil, err
	}
	defer f.Close()
	offset := max(c.Args.Int("offset", 0), 0)
	limit := c.Args.Int("limit", 2000)
	r := bufio.NewReaderSize(transform.NewReader(f, codec(s.Encoding).NewDecoder()), 64<<10)

	for i := 0; i < offset; i++ {
		if i%4096 == 0 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		_, _, ok, err := readLine(r, 0)
		if err != nil {
			return nil, fmt.Errorf("read %s: %w", p, err)
		}
		if !ok {
			break
		}
	}
	var sb strings.Builder
	n, cutLines, eof := 0, 0, false
	for n < limit {
		line, cut, ok, err := readLine(r, min(maxLineBytes, ft.cfg.MaxReadBytes))
		if err != nil {
			return nil, fmt.Errorf("read %s: %w", p, err)
		}
		if !ok {
			eof = true
			break
		}
		if n > 0 && sb.Len()+len(line)+1 > ft.cfg.MaxReadBytes {
			break // this line is read again from next_offset
		}
		if n > 0 {
			sb.WriteByte('\n')
		}
		sb.WriteString(line)
		if cut {
			cutLines++
		}
		n++
	}
	if !eof {
		if _, err := r.Peek(1); err == io.EOF {
			eof = true
		}
	}
	data := map[string]any{
		"path":     ft.rel(abs),
		"encoding": s.Encoding,
		"bom":      s.BOM > 0,
		"size":     info.Size(),
		"offset":   offset,
		"lines":    n,
		"eof":      eof,
		"text":     sb.String(),
	}
	if !eof {
		data["next_offset"] = offset + n
	}
	if cutLines > 0 {
		data["truncated_lines"] = cutLines
	}
	summary := fmt.Sprintf("Read %d line(s) of %s from line %d (%s)", n, p, offset+1, s.Encoding)
	if !eof {
		summary += fmt.Sprintf("; more follows, continue with offset=%d", offset+n)
	}
	return &tool.Result{Summary: summary, Data: data}, nil
}

// encodeText encodes text; utf-16 output carries a BOM so that read detects it.
func encodeText(text, enc string, bom bool) ([]byte, error) {
	var out []byte
	switch enc {
	case "", "auto", "utf-8":
		out = []byte(text)
		if bom {
			out = append([]byte{0xEF, 0xBB, 0xBF}, out...)
		}
		return out, nil
	case "utf-16le", "utf-16be":
		order := unicode.LittleEndian
		if enc == "utf-16be" {
			order = unicode.BigEndian
		}
		policy := unicode.IgnoreBOM
		if bom {
			policy = unicode.UseBOM
		}
		b, err := unicode.UTF16(order, policy).NewEncoder().Bytes([]byte(text))
		if err != nil {
			return nil, tool.Invalid("text", fmt.Sprintf("cannot encode the text as %s: %v", enc, err), "")
		}
		return b, nil
	default:
		b, err := codec(enc).NewEncoder().Bytes([]byte(text))
		if err != nil {
			return nil, tool.Invalid("text", fmt.Sprintf("the text has characters that %s cannot represent: %v", enc, err), "use encoding=utf-8 or gb18030")
		}
		return b, nil
	}
}

// existingEncoding detects the encoding of an existing text file for write
// and append; binary files are refused so text is never spliced into them.
func existingEncoding(abs, p string) (sniffed, error) {
	f, err := os.Open(abs)
	if err != nil {
		return sniffed{}, statErr("path", p, err)
	}
	defer f.Close()
	sample, full, err := readSample(f, sampleSize)
	if err != nil {
		return sniffed{}, fmt.Errorf("read %s: %w", p, err)
	}
	s := detect(sample, full)
	if len(sample) == 0 {
		s = sniffed{Encoding: "utf-8"}
	}
	return s, nil
}

func (ft *fileTool) write(ctx context.Context, c *tool.Call) (*tool.Result, error) {
	p := c.Args.String("path")
	abs, err := ft.resolveWrite("path", p)
	if err != nil {
		return nil, err
	}
	enc := c.Args.StringOr("encoding", "auto")
	perm := fs.FileMode(0o644)
	bom := enc == "utf-16le" || enc == "utf-16be"
	info, err := os.Stat(abs)
	replacing := err == nil
	switch {
	case err == nil && info.IsDir():
		return nil, tool.Invalidf("path", "give a file path inside the directory", "%s is a directory", p)
	case err == nil && !info.Mode().IsRegular():
		return nil, tool.Invalidf("path", "", "%s is not a regular file", p)
	case err == nil && !c.Args.Bool("overwrite", false):
		return nil, tool.Existsf("path", "pass overwrite=true to replace it (the old version goes to the trash), or choose another path", "%s already exists", p)
	case err == nil:
		perm = info.Mode().Perm()
		if enc == "auto" {
			if s, err := existingEncoding(abs, p); err == nil && s.Encoding != "" {
				enc, bom = s.Encoding, s.BOM > 0
			}
		}
	case !os.IsNotExist(err):
		return nil, statErr("path", p, err)
	}
	data, err := encodeText(c.Args.String("text"), enc, bom)
	if err != nil {
		return nil, err
	}
	if err := os.MkdirAll(filepath.Dir(abs), 0o755); err != nil {
		return nil, fmt.Errorf("write: create parents of %s: %w", p, err)
	}
	out := map[string]any{"path": ft.rel(abs), "bytes": len(data), "encoding": encName(enc), "created": !replacing}
	if replacing {
		rec, err := trash.Snapshot(ctx, ft.sb, abs, "overwritten by write")
		if err != nil {
			return nil, fmt.Errorf("write: keep the old version of %s: %w", p, err)
		}
		out["replaced_trash_id"] = rec.ID
	}
	if err := atomicfile.WriteFile(abs, data, perm); err != nil {
		return nil, fmt.Errorf("write %s: %w", p, err)
	}
	verb := "Created"
	if replacing {
		verb = "Replaced"
	}
	return &tool.Result{
		Summary: fmt.Sprintf("%s %s (%s, %s)", verb, ft.rel(abs), wording.Count(len(data), "byte", "bytes"), encName(enc)),
		Data:    out,
		Files:   []tool.File{{Path: abs, MIME: mimeOf(abs, nil), Size: int64(len(data))}},
	}, nil
}

func encName(enc string) string {
	if enc == "" || enc == "auto" {
		return "utf-8"
	}
	return enc
}

// appendText appends with O_APPEND in one write. Not atomic in the
// temp-and-rename sense (that would copy the whole file every time), but a
// single append write is never torn for readers of the existing content.
func (ft *fileTool) appendText(ctx context.Context, c *tool.Call) (*tool.Result, error) {
	p := c.Args.String("path")
	abs, err := ft.resolveWrite("path", p)
	if err != nil {
		return nil, err
	}
	enc := c.Args.StringOr("encoding", "auto")
	info, err := os.Stat(abs)
	created := os.IsNotExist(err)
	switch {
	case err == nil && !info.Mode().IsRegular():
		return nil, tool.Invalidf("path", "give a regular file path", "%s is not a regular file", p)
	case err == nil:
		s, err := existingEncoding(abs, p)
		if err != nil {
			return nil, err
		}
		if s.Binary {
			return nil, tool.Invalidf("path", "append only adds text to text files", "%s is a binary file", p)
		}
		if enc == "auto" && s.Encoding != "" {
			enc = s.Encoding
		}
	case !created:
		return nil, statErr("path", p, err)
	}
	data, err := encodeText(c.Args.String("text"), enc, false)
	if err != nil {
		return nil, err
	}
	if created {
		if err := os.MkdirAll(filepath.Dir(abs), 0o755); err != nil {
			return nil, fmt.Errorf("append: create parents of %s: %w", p, err)
		}
	}
	f, err := os.OpenFile(abs, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
	if err != nil {
		return nil, fmt.Errorf("append %s: %w", p, err)
	}
	if _, err := f.Write(data); err != nil {
		f.Close()
		return nil, fmt.Errorf("append %s: %w", p, err)
	}
	if err := f.Close(); err != nil {
		return nil, fmt.Errorf("append %s: %w", p, err)
	}
	size := int64(len(data))
	if st, err := os.Stat(abs); err == nil {
		size = st.Size()
	}
	return &tool.Result{
		Summary: fmt.Sprintf("Appended %s to %s (%s)", wording.Count(len(data), "byte", "bytes"), ft.rel(abs), encName(enc)),
		Data:    map[string]any{"path": ft.rel(abs), "bytes": len(data), "size": size, "encoding": encName(enc), "created": created},
		Files:   []tool.File{{Path: abs, MIME: mimeOf(abs, nil), Size: size}},
	}, nil
}
