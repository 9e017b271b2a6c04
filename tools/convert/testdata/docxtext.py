"""Prints the text of a .docx as python-docx (Debian's python3-docx) reads
it: every w:t of the body in document order, text boxes included, a
paragraph per line. Of an mc:AlternateContent only the mc:Choice is read
(its mc:Fallback repeats the same text for old readers)."""
import sys

import docx
from docx.oxml.ns import qn

FALLBACK = "{http://schemas.openxmlformats.org/markup-compatibility/2006}Fallback"


def walk(el, out):
    if el.tag == FALLBACK:
        return
    if el.tag == qn("w:t"):
        out.append(el.text or "")
        return
    if el.tag in (qn("w:br"), qn("w:tab")):
        out.append(" ")
        return
    for child in el:
        walk(child, out)
    if el.tag == qn("w:p"):
        out.append("\n")


out = []
walk(docx.Document(sys.argv[1]).element.body, out)
sys.stdout.write("".join(out))
