package finance

import (
	"fmt"
	"strings"
)

// sheet is a file's rows as trimmed cells, with the line (or xlsx row)
// each row starts on, for errors that point at the right place.
type sheet struct {
	rows  [][]string
	lines []int
}

// readCSV splits CSV text into trimmed cells. It is written out rather than
// left to encoding/csv because bill exports pad a quoted cell after its
// closing quote ("-18.00"<tab>, as HSBC writes): encoding/csv's LazyQuotes
// takes that quote for part of the cell and runs on through the following
// rows, so a whole statement became a few huge cells and imported nothing.
// Here blanks after a closing quote end the cell; a doubled quote in a
// quoted cell is one quote; a quote inside an unquoted cell, or a closing
// quote followed by more text, is kept as text (the stray quotes of notes);
// a quoted cell still open at the end of the file is an error, not a row
// that swallowed the rest. Blank lines are dropped. Cells lose the spaces
// and tabs the platforms pad them with (a tab keeps Excel from showing an
// order number as 4.2E+27).
func readCSV(text string) (sheet, error) {
	var out sheet
	var row []string
	var cell strings.Builder
	line, rowLine, quoteLine := 1, 1, 0
	const (
		start  = iota // at the start of a cell, before any text
		plain         // in an unquoted cell
		quoted        // inside quotes
		closed        // after a closing quote, before the separator
	)
	state := start
	pending := "" // blanks after a closing quote, kept if text follows
	endCell := func() {
		row = append(row, strings.Trim(cell.String(), " \t\u3000"))
		cell.Reset()
		state, pending = start, ""
	}
	endRow := func() {
		endCell()
		if len(row) > 1 || row[0] != "" {
			out.rows = append(out.rows, row)
			out.lines = append(out.lines, rowLine)
		}
		row = nil
		line++
		rowLine = line
	}
	for i := 0; i < len(text); i++ {
		c := text[i]
		if c == '\r' && i+1 < len(text) && text[i+1] == '\n' && state != quoted {
			continue // the \n ends the row
		}
		switch state {
		case start, plain:
			switch {
			case c == ',':
				endCell()
			case c == '\n':
				endRow()
			case c == '"' && state == start:
				state, quoteLine = quoted, line
				cell.Reset() // blanks before the quote
			default:
				cell.WriteByte(c)
				if c != ' ' && c != '\t' {
					state = plain
				}
			}
		case quoted:
			switch {
			case c == '"' && i+1 < len(text) && text[i+1] == '"':
				cell.WriteByte('"')
				i++
			case c == '"':
				state = closed
			default:
				cell.WriteByte(c)
				if c == '\n' {
					line++
				}
			}
		case closed:
			switch c {
			case ' ', '\t':
				pending += string(c)
			case ',':
				endCell()
			case '\n':
				endRow()
			default: // more text after the quote: the quote was text
				cell.WriteString(`"` + pending)
				cell.WriteByte(c)
				state, pending = quoted, ""
			}
		}
	}
	if state == quoted {
		return sheet{}, fmt.Errorf("line %d: a quoted cell is never closed", quoteLine)
	}
	if state != start || cell.Len() > 0 || len(row) > 0 {
		endRow()
	}
	return out, nil
}
