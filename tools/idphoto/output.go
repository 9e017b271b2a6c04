package idphoto

import (
	"image"
	"path/filepath"

	"github.com/clawbridge/clawbridge/tools/tool"
)

// planOutput plans the file made from the photo at path: by default
// outputs/<name>_<suffix>.<format>; the photo itself is replaced only with
// overwrite. create and sheet both plan here, before any work.
func (p *idPhoto) planOutput(c *tool.Call, path, suffix, format string) (*tool.Outputs, error) {
	abs, _ := p.d.Sandbox.Resolve(filepath.Join(p.d.Sandbox.Root(), path))
	return tool.PlanOutput(p.d.Sandbox, c.Args, tool.Output{Stem: tool.StemOf(path) + "_" + suffix, Exts: []string{"." + format}, Inputs: []string{abs}})
}

// save encodes img at 300 dpi (encode) into the planned file and returns
// the file with its path in the workspace.
func (p *idPhoto) save(out *tool.Outputs, img image.Image, format string) (tool.File, string, error) {
	data, err := encode(img, format)
	if err != nil {
		return tool.File{}, "", err
	}
	file, err := out.Write("."+format, data)
	if err != nil {
		return tool.File{}, "", err
	}
	return file, p.d.Sandbox.Rel(file.Path), nil
}
