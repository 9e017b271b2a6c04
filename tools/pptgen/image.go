package pptgen

import "github.com/clawbridge/clawbridge/internal/docx"

var docxNormalize = docx.NormalizeImage
