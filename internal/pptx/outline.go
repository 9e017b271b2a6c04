package pptx

import (
	"bytes"
	"fmt"
	"regexp"
	"strings"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	east "github.com/yuin/goldmark/extension/ast"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
)

// FromMarkdown reads a Markdown outline into slides:
//
//   - the first "# Heading" is the title slide (a paragraph under it is the
//     subtitle); later "# Heading"s are section slides;
//   - "## Heading" starts a slide: list items are bullets (nested items are
//     second-level bullets), plain paragraphs are bullets too;
//   - "### Left" and "### Right" under a slide make a two-column slide;
//   - an image makes an image slide (its title or alt text is the caption);
//   - a table makes a table slide;
//   - a block quote holds the speaker notes;
//   - a last "##" slide with no content (e.g. "## Thank you") is the closing
//     slide.
//
// loadImage fetches image bytes by destination.
func FromMarkdown(md []byte, loadImage func(string) ([]byte, error)) ([]Slide, error) {
	p := goldmark.New(goldmark.WithExtensions(extension.GFM))
	doc := p.Parser().Parse(text.NewReader(md))
	o := &outline{src: md, load: loadImage}
	if err := o.walk(doc); err != nil {
		return nil, err
	}
	o.flush()
	if n := len(o.slides); n > 1 {
		last := &o.slides[n-1]
		if last.Kind == KindBullets && o.lastEmpty {
			last.Kind = KindClosing
		}
	}
	return o.slides, nil
}

type outline struct {
	src       []byte
	load      func(string) ([]byte, error)
	slides    []Slide
	cur       *Slide
	lastEmpty bool
	column    int // 0 none, 1 left, 2 right
	content   bool
}

var thanksRE = regexp.MustCompile(`(?i)^(thank|thanks|q\s*&\s*a|questions|谢谢|感谢|问答|结束)`)

func (o *outline) flush() {
	if o.cur == nil {
		return
	}
	s := *o.cur
	o.lastEmpty = !o.content
	if s.Kind == KindBullets && !o.content && thanksRE.MatchString(s.Title) {
		s.Kind = KindClosing
	}
	o.slides = append(o.slides, s)
	o.cur = nil
	o.column = 0
	o.content = false
}

func (o *outline) plain(n ast.Node) string {
	var b strings.Builder
	var walk func(ast.Node)
	walk = func(n ast.Node) {
		for c := n.FirstChild(); c != nil; c = c.NextSibling() {
			switch v := c.(type) {
			case *ast.Text:
				b.Write(util.UnescapePunctuations(v.Value(o.src)))
				if v.SoftLineBreak() {
					b.WriteByte(' ')
				} else if v.HardLineBreak() {
					b.WriteByte('\n')
				}
			case *ast.String:
				b.Write(v.Value)
			default:
				walk(c)
			}
		}
	}
	walk(n)
	return strings.TrimSpace(b.String())
}

// inlineMD returns a node's source as inline Markdown, so bold and links
// survive into the slide text.
func (o *outline) inlineMD(n ast.Node) string {
	l := n.Lines()
	if l == nil || l.Len() == 0 {
		return o.plain(n)
	}
	var b bytes.Buffer
	for i := 0; i < l.Len(); i++ {
		seg := l.At(i)
		if i > 0 {
			b.WriteByte(' ')
		}
		b.Write(bytes.TrimSpace(seg.Value(o.src)))
	}
	return strings.TrimSpace(b.String())
}

func (o *outline) walk(doc ast.Node) error {
	for n := doc.FirstChild(); n != nil; n = n.NextSibling() {
		switch v := n.(type) {
		case *ast.Heading:
			o.heading(v)
		case *ast.Paragraph, *ast.TextBlock:
			if err := o.paragraph(n); err != nil {
				return err
			}
		case *ast.List:
			if o.cur == nil {
				o.cur = &Slide{Kind: KindBullets}
			}
			if o.cur.Kind == KindTitle || o.cur.Kind == KindSection {
				// A list under a title slide: keep it as subtitle lines.
				for _, b := range o.list(v, 0) {
					o.cur.Subtitle = strings.TrimSpace(o.cur.Subtitle + "\n" + b.Text)
				}
				continue
			}
			o.addBullets(o.list(v, 0))
		case *east.Table:
			o.table(v)
		case *ast.Blockquote:
			o.notes(v)
		case *ast.FencedCodeBlock, *ast.CodeBlock:
			if o.cur == nil {
				continue
			}
			var b bytes.Buffer
			for i := 0; i < v.Lines().Len(); i++ {
				seg := v.Lines().At(i)
				b.Write(seg.Value(o.src))
			}
			for _, line := range strings.Split(strings.TrimRight(b.String(), "\n"), "\n") {
				o.addBullets([]Bullet{{Text: "`" + line + "`"}})
			}
		}
	}
	return nil
}

// heading starts a slide (# a section, or the title slide first; ## a
// bullet slide) or, inside a slide, a column (###).
func (o *outline) heading(v *ast.Heading) {
	title := o.inlineMD(v)
	switch {
	case v.Level == 1:
		o.flush()
		kind := KindSection
		if len(o.slides) == 0 {
			kind = KindTitle
		}
		o.cur = &Slide{Kind: kind, Title: title}
	case v.Level == 2 || o.cur == nil:
		o.flush()
		o.cur = &Slide{Kind: KindBullets, Title: title}
	default: // ### inside a slide: a column
		o.cur.Kind = KindTwoColumn
		o.content = true
		if o.column == 0 {
			o.column = 1
			o.cur.LeftTitle = title
		} else {
			o.column = 2
			o.cur.RightTitle = title
		}
	}
}

// paragraph adds a paragraph to the slide: its picture when it holds only
// an image, a subtitle line on a title slide, else a bullet.
func (o *outline) paragraph(n ast.Node) error {
	if o.cur == nil {
		o.cur = &Slide{Kind: KindBullets}
	}
	if img := o.soleImage(n); img != nil {
		data, err := o.image(img)
		if err != nil {
			return err
		}
		o.cur.Kind = KindImage
		o.cur.Image = data
		o.cur.Caption = string(img.Title)
		if o.cur.Caption == "" {
			o.cur.Caption = o.plain(img)
		}
		o.content = true
		return nil
	}
	txt := o.inlineMD(n)
	switch o.cur.Kind {
	case KindTitle, KindSection, KindClosing:
		if o.cur.Subtitle != "" {
			o.cur.Subtitle += "\n"
		}
		o.cur.Subtitle += txt
	default:
		o.addBullets([]Bullet{{Text: txt}})
	}
	return nil
}

// table makes the slide a table slide.
func (o *outline) table(v *east.Table) {
	if o.cur == nil {
		o.cur = &Slide{Kind: KindBullets}
	}
	o.cur.Kind = KindTable
	o.content = true
	for row := v.FirstChild(); row != nil; row = row.NextSibling() {
		var cells []string
		for c := row.FirstChild(); c != nil; c = c.NextSibling() {
			cells = append(cells, o.inlineMD(c))
		}
		if _, ok := row.(*east.TableHeader); ok {
			o.cur.Header = cells
		} else {
			o.cur.Rows = append(o.cur.Rows, cells)
		}
	}
}

// notes adds a block quote to the slide's speaker notes, without its
// "Notes:" label.
func (o *outline) notes(v *ast.Blockquote) {
	if o.cur == nil {
		return
	}
	var lines []string
	for c := v.FirstChild(); c != nil; c = c.NextSibling() {
		lines = append(lines, o.plain(c))
	}
	note := strings.Join(lines, "\n")
	for _, p := range []string{"Notes:", "Note:", "notes:", "备注：", "备注:", "讲稿："} {
		note = strings.TrimSpace(strings.TrimPrefix(note, p))
	}
	if o.cur.Notes != "" {
		o.cur.Notes += "\n"
	}
	o.cur.Notes += note
}

func (o *outline) addBullets(bs []Bullet) {
	o.content = true
	switch o.column {
	case 1:
		o.cur.Left = append(o.cur.Left, bs...)
	case 2:
		o.cur.Right = append(o.cur.Right, bs...)
	default:
		o.cur.Bullets = append(o.cur.Bullets, bs...)
	}
}

func (o *outline) list(l *ast.List, lvl int) []Bullet {
	var out []Bullet
	for it := l.FirstChild(); it != nil; it = it.NextSibling() {
		for c := it.FirstChild(); c != nil; c = c.NextSibling() {
			switch v := c.(type) {
			case *ast.List:
				out = append(out, o.list(v, lvl+1)...)
			default:
				out = append(out, Bullet{Text: o.inlineMD(c), Level: min(lvl, 1)})
			}
		}
	}
	return out
}

func (o *outline) soleImage(n ast.Node) *ast.Image {
	var img *ast.Image
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		switch v := c.(type) {
		case *ast.Image:
			if img != nil {
				return nil
			}
			img = v
		case *ast.Text:
			if len(bytes.TrimSpace(v.Value(o.src))) > 0 {
				return nil // other text: not an image paragraph
			}
		default:
			return nil
		}
	}
	return img
}

func (o *outline) image(img *ast.Image) ([]byte, error) {
	dest := string(img.Destination)
	if o.load == nil {
		return nil, fmt.Errorf("outline: image %q: no image loader configured", dest)
	}
	data, err := o.load(dest)
	if err != nil {
		return nil, fmt.Errorf("outline: image %q: %w", dest, err)
	}
	return data, nil
}
