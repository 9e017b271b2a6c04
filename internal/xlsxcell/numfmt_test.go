package xlsxcell

import "testing"

// TestNumFmt_CustomCodes: a code is a date or time by its tokens outside
// quotes, escapes and brackets; number codes, quoted letters and colours
// are not.
func TestNumFmt_CustomCodes(t *testing.T) {
	for code, want := range map[string]fmtKind{
		"0.00":         fmtNumber,
		"#,##0":        fmtNumber,
		"General":      fmtNumber,
		"@":            fmtNumber,
		"0.00E+00":     fmtNumber,
		"[Red]0.00":    fmtNumber,
		"[Red][<0]0;0": fmtNumber,
		`#,##0 "days"`: fmtNumber,
		`0" d"`:        fmtNumber,
		`0\h`:          fmtNumber,
		`_(* #,##0_);_(* (#,##0);_(* "-"??_);_(@_)`: fmtNumber,
		`[$€-407] #,##0.00`:                         fmtNumber,
		`0.00;[Red]"minus "0.00`:                    fmtNumber,
		"yyyy-mm-dd":                                fmtDate,
		"DD/MM/YY":                                  fmtDate,
		`d\ mmmm\ yyyy`:                             fmtDate,
		"mmm-yy":                                    fmtDate,
		`[$-F800]dddd\,\ mmmm\ dd\,\ yyyy`:          fmtDate,
		`yyyy"年"m"月"d"日"`:                           fmtDate,
		"m/d/yy h:mm":                               fmtDateTime,
		"[$-409]m/d/yy h:mm AM/PM;@":                fmtDateTime,
		"yyyy-mm-dd hh:mm:ss":                       fmtDateTime,
		"h:mm":                                      fmtTime,
		"mm:ss.0":                                   fmtTime,
		"h:mm AM/PM":                                fmtTime,
		"[h]:mm:ss":                                 fmtElapsed,
		"[mm]:ss":                                   fmtElapsed,
	} {
		if got := codeKind(code); got != want {
			t.Errorf("codeKind(%q) = %d, want %d", code, got, want)
		}
	}
}

// TestNumFmt_BuiltinIDs: the built-in dates and times, the East Asian and
// Thai locale-dependent ones among them; everything else is a number.
func TestNumFmt_BuiltinIDs(t *testing.T) {
	want := map[int]fmtKind{22: fmtDateTime, 77: fmtDateTime, 46: fmtElapsed, 79: fmtElapsed}
	for _, id := range []int{14, 15, 16, 17, 27, 28, 29, 30, 31, 36, 50, 51, 52, 53, 54, 57, 58, 71, 72, 73, 74, 81} {
		want[id] = fmtDate
	}
	for _, id := range []int{18, 19, 20, 21, 32, 33, 34, 35, 45, 47, 55, 56, 75, 76, 78, 80} {
		want[id] = fmtTime
	}
	for id := 0; id < 164; id++ {
		if got := builtinKind(id); got != want[id] {
			t.Errorf("builtinKind(%d) = %d, want %d", id, got, want[id])
		}
	}
}

// TestNumberCell_Serials: serials on both date systems, fractions and the
// 1900 leap-year bug's phantom day.
func TestNumberCell_Serials(t *testing.T) {
	for _, c := range []struct {
		v    string
		k    fmtKind
		d    bool
		want string
	}{
		{"40543", fmtDate, true, "2015-01-01"},
		{"0", fmtDate, true, "1904-01-01"},
		{"42507", fmtDate, false, "2016-05-17"},
		{"61", fmtDate, false, "1900-03-01"},
		{"42507.5", fmtDate, false, "2016-05-17 12:00:00"},
		{"42507", fmtDateTime, false, "2016-05-17 00:00:00"},
		{"0.75", fmtTime, false, "18:00:00"},
		{"1.25", fmtElapsed, false, "30:00:00"},
		{"3.14", fmtNumber, false, "3.14"},
		{"-1", fmtDate, false, "-1"},
	} {
		if got := numberCell(c.v, c.k, c.d).String(); got != c.want {
			t.Errorf("numberCell(%s, %d, 1904=%v) = %s, want %s", c.v, c.k, c.d, got, c.want)
		}
	}
}
