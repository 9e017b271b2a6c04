// Package cjkfont finds a system font that covers Chinese and draws text
// with it, for tools that rasterise labels (mind maps, image watermarks,
// charts).
// Fonts come from Debian packages (fonts-wqy-zenhei, fonts-noto-cjk); nothing
// is downloaded. Noto Sans CJK comes first: x/image's sfnt reader cannot parse
// wqy-zenhei.ttc ("invalid table offset"), so Open falls through candidates
// until one parses.
package cjkfont

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"golang.org/x/image/font"
	"golang.org/x/image/font/opentype"
	"golang.org/x/image/font/sfnt"
)

// Candidates are the font files tried in order when no override is given.
var Candidates = []string{
	"/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc",
	"/usr/share/fonts/opentype/noto/NotoSansCJKsc-Regular.otf",
	"/usr/share/fonts/truetype/noto/NotoSansCJK-Regular.ttc",
	"/usr/share/fonts/noto-cjk/NotoSansCJK-Regular.ttc",
	"/usr/share/fonts/truetype/wqy/wqy-microhei.ttc",
	"/usr/share/fonts/truetype/wqy/wqy-zenhei.ttc",
	"/usr/share/fonts/truetype/droid/DroidSansFallbackFull.ttf",
	"/usr/share/fonts/truetype/arphic/uming.ttc",
}

// Packages names the Debian packages that provide a usable font, for errors.
const Packages = "fonts-wqy-zenhei or fonts-noto-cjk"

// Package is the one Debian package to name in an apt-get hint: its font
// parses, wqy-zenhei's does not.
const Package = "fonts-noto-cjk"

// ErrNoFont is returned when no CJK font is installed.
var ErrNoFont = errors.New("no CJK font found (install " + Packages + ")")

// Font is a parsed font that can make faces of any size.
type Font struct {
	Path string
	Name string // family name, e.g. "Noto Sans CJK SC"
	f    *sfnt.Font
	mu   sync.Mutex
	mfcs map[float64]font.Face // used by Width, only under mu
	buf  sfnt.Buffer           // used by Missing, only under mu
}

// New wraps an already parsed font, such as an embedded Latin fallback;
// name becomes Path.
func New(name string, sf *sfnt.Font) *Font {
	f := &Font{Path: name, f: sf, mfcs: map[float64]font.Face{}}
	f.Name, _ = sf.Name(nil, sfnt.NameIDFamily)
	return f
}

var (
	cacheMu sync.Mutex
	cache   = map[string]*Font{}
)

// Find returns the override when it names a readable file, else the first
// installed candidate.
func Find(override string) (string, error) {
	if override != "" {
		if _, err := os.Stat(override); err != nil {
			return "", fmt.Errorf("configured font %s: %w", override, err)
		}
		return override, nil
	}
	for _, c := range Candidates {
		if _, err := os.Stat(c); err == nil {
			return c, nil
		}
	}
	// Last resort: any font file whose name says CJK.
	for _, dir := range []string{"/usr/share/fonts", "/usr/local/share/fonts"} {
		var found string
		_ = filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
			if err != nil || found != "" || d.IsDir() {
				return nil
			}
			n := strings.ToLower(d.Name())
			if (strings.Contains(n, "cjk") || strings.Contains(n, "wqy")) && (strings.HasSuffix(n, ".ttc") || strings.HasSuffix(n, ".ttf") || strings.HasSuffix(n, ".otf")) {
				found = p
			}
			return nil
		})
		if found != "" {
			return found, nil
		}
	}
	return "", ErrNoFont
}

// Load parses the font at path (cached); a collection yields its first face.
func Load(path string) (*Font, error) {
	cacheMu.Lock()
	defer cacheMu.Unlock()
	if f, ok := cache[path]; ok {
		return f, nil
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("font: read %s: %w", path, err)
	}
	var sf *sfnt.Font
	if coll, cerr := opentype.ParseCollection(data); cerr == nil {
		sf, err = pickFace(coll)
	} else {
		sf, err = opentype.Parse(data)
	}
	if err != nil {
		return nil, fmt.Errorf("font: parse %s: %w", path, err)
	}
	f := New(path, sf)
	cache[path] = f
	return f, nil
}

// pickFace prefers the Simplified Chinese face of a collection (Noto's
// "... CJK SC"), else the first face that has Chinese glyphs.
func pickFace(coll *sfnt.Collection) (*sfnt.Font, error) {
	var first *sfnt.Font
	var firstErr error
	for i := 0; i < coll.NumFonts(); i++ {
		f, err := coll.Font(i)
		if err != nil {
			if firstErr == nil {
				firstErr = err
			}
			continue
		}
		if g, _ := f.GlyphIndex(nil, '中'); g == 0 {
			continue
		}
		if first == nil {
			first = f
		}
		if name, _ := f.Name(nil, sfnt.NameIDFull); strings.Contains(name, " SC") && !strings.Contains(name, "Mono") {
			return f, nil
		}
	}
	if first != nil {
		return first, nil
	}
	if firstErr == nil {
		firstErr = errors.New("no face with Chinese glyphs")
	}
	return nil, firstErr
}

// Open loads the override, or the first candidate that parses.
func Open(override string) (*Font, error) {
	if override != "" {
		p, err := Find(override)
		if err != nil {
			return nil, err
		}
		return Load(p)
	}
	var lastErr error = ErrNoFont
	for _, c := range Candidates {
		if _, err := os.Stat(c); err != nil {
			continue
		}
		f, err := Load(c)
		if err == nil {
			return f, nil
		}
		lastErr = err
	}
	if p, err := Find(""); err == nil {
		if f, err := Load(p); err == nil {
			return f, nil
		}
	}
	return nil, lastErr
}

// NewFace returns a fresh, unshared face.
func (f *Font) NewFace(size float64) (font.Face, error) {
	return opentype.NewFace(f.f, &opentype.FaceOptions{Size: size, DPI: 72, Hinting: font.HintingFull})
}

// Missing lists the characters of s (other than spaces and control
// characters) that the font has no glyph for.
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

// Width returns the advance width of s in pixels at size. It is safe for
// concurrent use; when no face can be made it estimates 0.6 em a byte.
func (f *Font) Width(s string, size float64) float64 {
	f.mu.Lock()
	defer f.mu.Unlock()
	fc, ok := f.mfcs[size]
	if !ok {
		var err error
		if fc, err = f.NewFace(size); err != nil {
			return float64(len(s)) * size * 0.6
		}
		f.mfcs[size] = fc
	}
	return Measure(fc, s)
}
