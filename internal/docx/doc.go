// Package docx writes WordprocessingML (.docx) files from Markdown or from a
// small blocks model: headings with real Word heading styles (Heading1..6 with
// outline levels, so a TOC field works), paragraphs with bold, italic, strike,
// code and hyperlinks, bullet and numbered lists (numbering.xml, nested),
// tables with a repeated header row, images scaled to the page, page breaks,
// header and footer with PAGE/NUMPAGES fields, a TOC field and an East-Asian
// font set for Chinese text.
//
// Why a small writer of our own: the pure-Go candidates we looked at are
// either commercially licensed (unioffice), LGPL (go-word), or young forks
// whose styles, numbering and field support would need patching anyway
// (godocx forks, wordingo); none covers TOC fields, per-list numbering
// restarts and eastAsia fonts together. WordprocessingML for these features is
// a few hundred lines of well-known XML, written here with archive/zip and
// string building, and every output is checked by tests that open it in
// LibreOffice and read the text back from the PDF it prints.
package docx
