package imagegen

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"image"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/disintegration/imaging"
	"github.com/makiuchi-d/gozxing"
	zxqr "github.com/makiuchi-d/gozxing/qrcode"
	"github.com/makiuchi-d/gozxing/qrcode/decoder"

	"github.com/clawbridge/clawbridge/internal/jail"
	"github.com/clawbridge/clawbridge/tools/tool"
)

// Every QR code is read back (gozxing, a pure-Go port of ZXing) before the
// call succeeds: what the tool says it wrote is what a scanner reads.

var utf8Hint = map[gozxing.DecodeHintType]any{gozxing.DecodeHintType_CHARACTER_SET: "UTF-8"}

// logoFits reports whether the code still decodes when every module that
// box (pixels of a size×size rendering) touches reads wrong. That is the
// worst a scanner can see under a logo, whatever the logo's colours, so a
// code that passes does not depend on how lenient the scanner is.
func logoFits(bitmap [][]bool, version, size int, box image.Rectangle, text string) bool {
	n := len(bitmap)
	border := (n - (17 + 4*version)) / 2 // the quiet zone skip2 draws
	symbol := make([][]bool, n-2*border)
	for y := range symbol {
		symbol[y] = append([]bool(nil), bitmap[y+border][border:n-border]...)
	}
	// skip2 maps pixel x to module x*n/size; flip each module a box pixel lands on.
	for y := max(box.Min.Y, 0); y < min(box.Max.Y, size); y++ {
		my := y*n/size - border
		for x := max(box.Min.X, 0); x < min(box.Max.X, size); x++ {
			if mx := x*n/size - border; my >= 0 && my < len(symbol) && mx >= 0 && mx < len(symbol) {
				symbol[my][mx] = !bitmap[my+border][mx+border]
			}
		}
	}
	res, err := decoder.NewDecoder().DecodeBoolMap(symbol, utf8Hint)
	return err == nil && res.GetText() == text
}

// readBack reads img as scanners would: gozxing, then zbarimg where it is
// installed. It answers a plain error when a reader does not give text
// back, and a tool error when zbarimg could not run.
func (g *imageGen) readBack(ctx context.Context, img image.Image, text string) error {
	bmp, err := gozxing.NewBinaryBitmapFromImage(img)
	if err != nil {
		return err
	}
	hints := map[gozxing.DecodeHintType]any{gozxing.DecodeHintType_TRY_HARDER: true}
	for k, v := range utf8Hint {
		hints[k] = v
	}
	res, err := zxqr.NewQRCodeReader().Decode(bmp, hints)
	switch {
	case err != nil:
		return fmt.Errorf("gozxing: %v", err)
	case res.GetText() != text:
		return errors.New("gozxing reads other text")
	}
	var png bytes.Buffer
	if err := imaging.Encode(&png, img, imaging.PNG); err != nil {
		return err
	}
	checked, ok, err := g.zbarReads(ctx, png.Bytes(), text)
	switch {
	case err != nil:
		return tool.Errorf(tool.CodeFailed, "see clawbridge doctor", "zbarimg could not check the code: %v", err)
	case checked && !ok:
		return errors.New("zbarimg does not read it")
	}
	return nil
}

// zbarReads asks zbarimg (zbar-tools), a second and stricter reader, in the
// jail, whether png reads as text. checked is false, with no error, when
// zbarimg or the jail is missing: gozxing's reading then stands alone.
func (g *imageGen) zbarReads(ctx context.Context, png []byte, text string) (checked, ok bool, err error) {
	if _, err := exec.LookPath("zbarimg"); err != nil || !jail.Available() {
		return false, false, nil
	}
	dir, err := os.MkdirTemp("", "clawbridge-qr-")
	if err != nil {
		return false, false, err
	}
	defer os.RemoveAll(dir)
	in := filepath.Join(dir, "qr.png")
	if err := os.WriteFile(in, png, 0o600); err != nil {
		return false, false, err
	}
	out, err := g.d.RunOnFiles(ctx, jail.FilesRun{Argv: []string{"zbarimg", "--quiet", "--raw", "-Sbinary", jail.FilesIn + "qr.png"},
		Inputs: []string{in}, Timeout: 30 * time.Second, StdoutCap: 64 << 10})
	var te *tool.Error
	switch {
	case errors.As(err, &te) && te.Code == tool.CodeFailed: // exit 4: no code found
		return true, false, nil
	case err != nil:
		return false, false, err
	}
	return true, strings.TrimSuffix(out, "\n") == text, nil
}
