package pptgen

import "clawbridge/internal/docx"

var docxNormalize = docx.NormalizeImage
