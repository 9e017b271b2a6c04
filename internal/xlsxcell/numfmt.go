package xlsxcell

import "strings"

// fmtKind is what a number format shows a number as.
type fmtKind int

const (
	fmtNumber   fmtKind = iota
	fmtDate             // a calendar date, no time of day
	fmtDateTime         // a date and a time of day
	fmtTime             // a time of day
	fmtElapsed          // elapsed time ([h]:mm:ss), which may pass 24 hours
)

// builtinKind classifies the built-in number format ids, which a workbook
// uses without spelling their codes out. 27–36 and 50–58 are the East Asian
// locales' dates, 71–81 the Thai ones; every locale shows them as dates.
func builtinKind(id int) fmtKind {
	switch {
	case id >= 14 && id <= 17, id >= 27 && id <= 31, id == 36, id >= 50 && id <= 54, id == 57, id == 58, id >= 71 && id <= 74, id == 81:
		return fmtDate
	case id == 22, id == 77:
		return fmtDateTime
	case id >= 18 && id <= 21, id >= 32 && id <= 35, id == 45, id == 47, id == 55, id == 56, id == 75, id == 76, id == 78, id == 80:
		return fmtTime
	case id == 46, id == 79:
		return fmtElapsed
	}
	return fmtNumber
}

// codeKind classifies a custom format code by its date and time tokens
// outside quoted text, escapes, fill and padding characters and bracketed
// colours, conditions and locales. Only the first section counts: it is
// the one positive numbers, dates among them, are shown with.
func codeKind(code string) fmtKind {
	var date, month, clock, elapsed bool
	rs := []rune(code)
	for i := 0; i < len(rs); i++ {
		r := rs[i]
		switch r {
		case ';':
			i = len(rs) // the first section only
			continue
		case '"':
			for i++; i < len(rs) && rs[i] != '"'; i++ {
			}
			continue
		case '\\', '_', '*':
			i++ // the next character is literal
			continue
		case '[':
			j := i + 1
			for j < len(rs) && rs[j] != ']' {
				j++
			}
			if in := strings.ToLower(string(rs[i+1 : min(j, len(rs))])); in != "" && strings.Trim(in, string(in[0])) == "" && strings.ContainsAny(in[:1], "hms") {
				elapsed = true // [h], [mm], [ss]
			}
			i = j
			continue
		}
		switch r {
		case 'y', 'Y', 'd', 'D', 'b', 'B':
			date = true
		case 'm', 'M':
			month = true
		case 'h', 'H', 's', 'S':
			clock = true
		case 'a', 'A':
			if up := strings.ToUpper(string(rs[i:min(i+5, len(rs))])); strings.HasPrefix(up, "AM/PM") || strings.HasPrefix(up, "A/P") {
				clock = true
			}
		case 'g', 'G':
			// "General" is the number format, not an era token.
			if strings.EqualFold(string(rs[i:min(i+7, len(rs))]), "general") {
				i += 6
			}
		case 'e', 'E':
			// E+ / E- is scientific notation; a lone e is an era year.
			if i+1 < len(rs) && (rs[i+1] == '+' || rs[i+1] == '-') {
				i++
			}
		}
	}
	switch {
	case elapsed && !date:
		return fmtElapsed
	case date || (month && !clock):
		if clock {
			return fmtDateTime
		}
		return fmtDate
	case clock:
		return fmtTime
	}
	return fmtNumber
}
