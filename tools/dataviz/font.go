package dataviz

import (
	"fmt"
	"os"
	"sync"

	"golang.org/x/image/font"
	"golang.org/x/image/font/opentype"
	"golang.org/x/image/font/sfnt"
)

// Fonts: charts are drawn with a real CJK font found on the system at run
// time (Debian fonts-wqy-zenhei or fonts-noto-cjk), or the file named in
// tools.data_visualization.font. Nothing is embedded: a full CJK font is
// 10-20 MB and a subset would miss whatever characters users type. When no
// font covers a label, the chart is refused with the package to install
// rather than drawn with missing-glyph boxes.
var fontCandidates = []string{
	"/usr/share/fonts/truetype/wqy/wqy-zenhei.ttc",
	"/usr/share/fonts/truetype/wqy/wqy-microhei.ttc",
	"/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc",
	"/usr/share/fonts/opentype/noto/NotoSansCJKsc-Regular.otf",
	"/usr/share/fonts/truetype/noto/NotoSansCJK-Regular.ttc",
	"/usr/share/fonts/truetype/droid/DroidSansFallbackFull.ttf",
}

// fontPackage is what to install when no usable font exists.
const fontPackage = "fonts-wqy-zenhei"

type fontFace = font.Face

// Font is a loaded font file.
type Font struct {
	Path  string
	Name  string
	f     *opentype.Font
	mu    sync.Mutex
	faces map[float64]fontFace
	buf   sfnt.Buffer
}

var (
	fontMu    sync.Mutex
	fontCache = map[string]*Font{}
)

// loadFont returns the configured font, or the first candidate present.
func loadFont(configured string) (*Font, error) {
	paths := fontCandidates
	if configured != "" {
		paths = []string{configured}
	}
	fontMu.Lock()
	defer fontMu.Unlock()
	var lastErr error
	for _, p := range paths {
		if f, ok := fontCache[p]; ok {
			return f, nil
		}
		b, err := os.ReadFile(p)
		if err != nil {
			lastErr = err
			continue
		}
		coll, err := opentype.ParseCollection(b)
		if err != nil {
			lastErr = fmt.Errorf("%s: %w", p, err)
			continue
		}
		// In a collection, prefer the Simplified Chinese member.
		var chosen *opentype.Font
		for i := range coll.NumFonts() {
			fnt, err := coll.Font(i)
			if err != nil {
				continue
			}
			if chosen == nil {
				chosen = fnt
			}
			var buf sfnt.Buffer
			if name, err := fnt.Name(&buf, sfnt.NameIDFull); err == nil && (containsAny(name, "SC", "Zen Hei", "Micro Hei")) {
				chosen = fnt
				break
			}
		}
		if chosen == nil {
			lastErr = fmt.Errorf("%s: no usable font", p)
			continue
		}
		f := &Font{Path: p, f: chosen, faces: map[float64]fontFace{}}
		f.Name, _ = chosen.Name(&f.buf, sfnt.NameIDFamily)
		fontCache[p] = f
		return f, nil
	}
	return nil, lastErr
}

func containsAny(s string, subs ...string) bool {
	for _, x := range subs {
		for i := 0; i+len(x) <= len(s); i++ {
			if s[i:i+len(x)] == x {
				return true
			}
		}
	}
	return false
}

// Face returns a face at a pixel size.
func (f *Font) Face(size float64) font.Face {
	f.mu.Lock()
	defer f.mu.Unlock()
	if face, ok := f.faces[size]; ok {
		return face
	}
	face, err := opentype.NewFace(f.f, &opentype.FaceOptions{Size: size, DPI: 72, Hinting: font.HintingNone})
	if err != nil {
		return nil
	}
	f.faces[size] = face
	return face
}

// Missing lists the characters of s that the font has no glyph for.
func (f *Font) Missing(s string) []rune {
	f.mu.Lock()
	defer f.mu.Unlock()
	var out []rune
	for _, r := range s {
		if r < 0x20 || r == ' ' {
			continue
		}
		if gi, err := f.f.GlyphIndex(&f.buf, r); err != nil || gi == 0 {
			out = append(out, r)
		}
	}
	return out
}

// Width measures s at size in pixels.
func (f *Font) Width(s string, size float64) float64 {
	face := f.Face(size)
	if face == nil {
		return float64(len(s)) * size * 0.6
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	return float64(font.MeasureString(face, s)) / 64
}
