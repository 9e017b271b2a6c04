package exposure

import (
	"maps"
	"slices"
	"strings"
)

// MCP servers name their tools verb_object: create_issue,
// list_pull_requests, API-post-page, browser_take_screenshot. A request
// says the same two things (a verb, "open a", "删掉", "what is"; an object,
// "PR 311", "the channels"), so a tool whose name's object words are all in
// the request and whose verb is the request's verb is the tool it asks for,
// and among siblings that share the object (get_pull_request,
// list_pull_requests, merge_pull_request) the verb and the number of the
// object ("PR 311" is one, "the open PRs" several) decide. This file reads
// the shape of both; match (external.go) adds the fit to the lexical score.

// verbClasses maps an English verb, of a tool name or of a request, to the
// kinds of action it can mean. A request word can mean several (show: get
// or list); a name's verb is read the same way (post: create or send).
var verbClasses = map[string][]string{
	"list": {"list"}, "enumerate": {"list"},
	"show": {"get", "list"}, "view": {"get", "list"}, "see": {"get", "list"}, "display": {"get", "list"},
	"get": {"get"}, "grab": {"get"}, "read": {"get"}, "retrieve": {"get"}, "fetch": {"get"}, "load": {"get"}, "dump": {"get", "list"}, "export": {"get"},
	"describe": {"get"}, "check": {"get"}, "what": {"get"}, "who": {"get"}, "inspect": {"get"},
	"open": {"get", "navigate"}, "visit": {"navigate"}, "navigate": {"navigate"}, "goto": {"navigate"}, "browse": {"navigate"},
	"create": {"create"}, "new": {"create"}, "make": {"create"}, "add": {"create"}, "post": {"create", "send"},
	"start": {"create"}, "leave": {"create"}, "submit": {"create"}, "raise": {"create"}, "cut": {"create"}, "insert": {"create"}, "append": {"create", "update"}, "write": {"create", "update"},
	"update": {"update"}, "edit": {"update"}, "change": {"update"}, "modify": {"update"}, "rename": {"update", "move"},
	"set": {"update"}, "patch": {"update"}, "close": {"update", "close"}, "reopen": {"update"}, "rewrite": {"update"},
	"replace": {"update"}, "overwrite": {"update"},
	"delete": {"delete"}, "remove": {"delete"}, "forget": {"delete"}, "erase": {"delete"}, "destroy": {"delete"},
	"search": {"search"}, "find": {"search"}, "query": {"search"}, "filter": {"search"}, "lookup": {"search"}, "look": {"search", "get"},
	"send": {"send"}, "reply": {"send", "create"}, "tell": {"send"}, "notify": {"send"}, "say": {"send"},
	"take": {"capture"}, "capture": {"capture"}, "snap": {"capture"},
	"approve": {"create"},
	"move":    {"move"}, "merge": {"merge"}, "fork": {"fork"}, "push": {"push"},
}

// verbOf returns the classes of a verb or of its inflection (checks,
// reviewed, merging, opened).
func verbOf(w string) []string {
	if cl, ok := verbClasses[w]; ok {
		return cl
	}
	for _, end := range []string{"s", "es", "ed", "d", "ing"} {
		if b, ok := strings.CutSuffix(w, end); ok && len(b) >= 2 {
			if cl, ok := verbClasses[b]; ok {
				return cl
			}
			if n := len(b); n > 2 && b[n-1] == b[n-2] { // stopped, shipping
				if cl, ok := verbClasses[b[:n-1]]; ok {
					return cl
				}
			}
			if cl, ok := verbClasses[b+"e"]; ok && (end == "ed" || end == "ing") { // merged, closing
				return cl
			}
		}
	}
	return nil
}

// verbTerms are the verbs as the lexical index stems them.
var verbTerms = func() map[string]bool {
	m := map[string]bool{}
	for w := range verbClasses {
		m[string(stem([]byte(w)))] = true
	}
	return m
}()

// batchWords in a tool's name say it takes several things at once
// (read_multiple_files, batch_get): a plural request meets them.
// Held as objStem gives them.
var batchWords = func() map[string]bool {
	m := map[string]bool{}
	for _, w := range []string{"multiple", "many", "batch", "bulk", "several"} {
		m[objStem(w)] = true
	}
	return m
}()

// quantifiers make a request's object plural: "all the channels", "所有".
var quantifiers = map[string]bool{"all": true, "every": true, "everyone": true, "each": true}

// nameStopWords are name words that are neither verb nor object.
var nameStopWords = map[string]bool{"a": true, "an": true, "the": true, "or": true, "and": true, "of": true,
	"to": true, "as": true, "with": true, "by": true, "for": true, "in": true, "on": true, "from": true, "into": true}

// nameShape is what a tool's name says: its verbs' classes and its object
// words (stemmed; see objStem), and whether the object is plural.
type nameShape struct {
	verbs  []string
	objs   []string
	plural bool
	// objVerbs are the verb classes of object words that are verbs used
	// as nouns (API-post-search: a search), per objs index.
	objVerbs [][]string
}

// objStem reduces a word to the form both sides are compared in:
// "branches" and "branch", "messages" and "message", "entities" and
// "entity" meet.
func objStem(w string) string {
	s := string(stem([]byte(w)))
	if len(s) > 4 && s[len(s)-1] == 'e' {
		s = s[:len(s)-1]
	}
	return s
}

// isPlural reports whether an English word is a plural its stem shows.
func isPlural(w string) bool {
	n := len(w)
	return n > 3 && w[n-1] == 's' && w[n-2] != 's' && w[n-2] != 'u' && w[n-2] != 'i'
}

// shapeOf reads a tool's name without its server prefix and without the
// prefix all of its server's tools share (slack_, API-, browser_): the
// leading verbs (create, create_or_update), then the objects.
func shapeOf(short string, prefix string) nameShape {
	words := strings.Fields(strings.ToLower(splitName(short)))
	if prefix != "" && len(words) > 1 && words[0] == prefix {
		words = words[1:]
	}
	var sh nameShape
	expectVerb := true // the first word, and one after "verb or"
	for i, w := range words {
		if nameStopWords[w] {
			expectVerb = w == "or" && len(sh.verbs) > 0 && len(sh.objs) == 0
			continue
		}
		if cl, ok := verbClasses[w]; ok && expectVerb {
			sh.verbs = append(sh.verbs, cl...)
			expectVerb = false
			continue
		}
		expectVerb = false
		sh.objs = append(sh.objs, objStem(w))
		sh.objVerbs = append(sh.objVerbs, verbClasses[w])
		if i == len(words)-1 {
			sh.plural = isPlural(w)
		}
	}
	// get_users and get_block_children list: a plural object makes a get
	// a list.
	if sh.plural {
		for _, v := range sh.verbs {
			if v == "get" {
				sh.verbs = append(sh.verbs, "list")
				break
			}
		}
	}
	return sh
}

// commonPrefix is the first name word every tool of a server shares, when
// the server has at least three tools (slack_, API-, browser_): it says
// which server, not which tool.
func commonPrefix(shorts []string) string {
	if len(shorts) < 3 {
		return ""
	}
	first := ""
	for i, s := range shorts {
		w := strings.Fields(strings.ToLower(splitName(s)))
		if len(w) < 2 {
			return ""
		}
		if i == 0 {
			first = w[0]
		} else if w[0] != first {
			return ""
		}
	}
	return first
}

// requestShape is what a request says in the same terms: the classes of
// its verbs (with those its form implies), its object words, and the
// object's number.
type requestShape struct {
	verbs            map[string]bool
	objs             map[string]bool
	numbered         map[string]bool // objects followed by a number: things that exist (issue 40)
	plural, singular bool
}

// shapeOfRequest reads normalised request text whose first orig bytes are
// the request and the rest the words the glossary and the artefacts added
// (they say no number: Chinese has none). Words of five letters or more
// that no tool's text holds are corrected to a name word one edit away
// ("requst", "isues"). An object word followed by a number, or a "#123",
// makes the request about one thing (get); a plural object or a quantifier
// about several (list); show, view and see mean whichever the number says.
func (x *externalSet) shapeOfRequest(text []byte, orig int) requestShape {
	rs := requestShape{verbs: map[string]bool{}, objs: map[string]bool{}, numbered: map[string]bool{}}
	var m requestMarks
	words := x.requestWords(text, orig, &m)
	past := askedPast(text[:orig])
	for i, wd := range words {
		w := wd.w
		if w[0] >= '0' && w[0] <= '9' {
			x.readNumber(&rs, &m, text, words, i)
			continue
		}
		if len(w) >= 5 && !x.nameVocab[w] && !x.known(w) {
			if c, ok := x.correct(w); ok {
				w = c
			}
		}
		cl, done := x.wordVerbs(&rs, &m, words, i, w, past)
		for _, c := range cl {
			rs.verbs[c] = true
		}
		if done {
			continue
		}
		x.readObject(&rs, wd, w)
	}
	x.impliedObjects(&rs, m.hashNum)
	impliedVerbs(&rs, m)
	return rs
}

// requestWord is one word of a request, with where it stands.
type requestWord struct {
	w       string
	added   bool // from the glossary, not the request
	at, end int
}

// requestMarks are what a request's words say beside its verbs and
// objects: a number names one thing (ident), a bare "#99" a repository's
// (hashNum), "about" asks about a topic, show or view mean get or list by
// the number (either).
type requestMarks struct{ ident, hashNum, about, either bool }

// requestWords splits text into words, noting the "#123" numbers in m.
func (x *externalSet) requestWords(text []byte, orig int, m *requestMarks) []requestWord {
	var words []requestWord
	for i := 0; i < len(text); {
		if !isWordByte(text[i]) {
			if text[i] == '#' && i+1 < len(text) && '0' <= text[i+1] && text[i+1] <= '9' {
				m.ident = true
				// bare: not "issue #5" but "#5 on acme/cli", "acme/cli#5"
				if n := len(words); n == 0 || verbOf(words[n-1].w) != nil || (!x.objVocab[objStem(words[n-1].w)] && x.glossENMap[words[n-1].w] == "") {
					m.hashNum = true
				}
			}
			i++
			continue
		}
		j := i
		for j < len(text) && isWordByte(text[j]) {
			j++
		}
		words = append(words, requestWord{string(text[i:j]), i >= orig, i, j})
		i = j
	}
	return words
}

// readNumber reads the number words[i]: after an object it names one
// thing (issue 33, PR 91), after "pull" a pull request, between numbers
// and a plus a sum.
func (x *externalSet) readNumber(rs *requestShape, m *requestMarks, text []byte, words []requestWord, i int) {
	wd := words[i]
	if i > 0 && (rs.objs[objStem(words[i-1].w)] || x.glossENMap[words[i-1].w] != "") {
		m.ident = true // issue 33, PR 91
		prev := words[i-1].w
		if e := x.glossENMap[prev]; e != "" {
			prev = e
		}
		for _, f := range strings.Fields(prev) {
			rs.numbered[objStem(f)] = true
		}
	}
	if i > 0 && words[i-1].w == "pull" && x.objVocab[objStem("request")] {
		rs.objs[objStem("request")] = true // pull 1520, pull/88: a pull request
	}
	if i > 0 && isNumber(words[i-1].w) && isPlus(text[words[i-1].end:wd.at]) && x.objVocab["sum"] {
		rs.objs["sum"] = true // 17 + 25, 17 加 25
	}
}

// wordVerbs reads the verb classes of w, words[i] (typos corrected), in
// its context; done says that the word says nothing more (it is not an
// object).
func (x *externalSet) wordVerbs(rs *requestShape, m *requestMarks, words []requestWord, i int, w string, past bool) (cl []string, done bool) {
	cl = verbOf(w)
	next := ""
	if i+1 < len(words) {
		next = words[i+1].w
	}
	switch {
	case w == "open" && i > 0 && openState[words[i-1].w]:
		// still open, are open, the open PRs: a state, not an action
		cl = nil
	case (w == "open" || w == "file" || w == "log") && (next == "a" || next == "an" || next == "new"):
		// open a PR, file a bug, log an issue: a noun or another
		// verb used as "create"
		cl = []string{"create"}
		if w == "file" {
			return nil, true
		}
	case w == "add" && next != "" && '0' <= next[0] && next[0] <= '9':
		cl = nil // add 17 and 25: a sum, not a new thing
		if x.objVocab["sum"] {
			rs.objs["sum"] = true
		}
	case w == "show" || w == "view" || w == "see" || w == "display" || w == "which":
		cl, m.either = nil, true
	case past && len(cl) > 0 && !slices.Contains(cl, "get") && !slices.Contains(cl, "list") && !slices.Contains(cl, "search"):
		cl, m.either = nil, true // what did people leave, did anyone change it: a reading
	case w == "pull" && !strings.HasPrefix(next, "request") && (next == "" || next[0] < '0' || next[0] > '9'):
		// pull the file, pull scripts/etl.py: a fetch; pull request,
		// pull 88 (see above) are the thing
		return []string{"get"}, true
	case quantifiers[w]:
		rs.plural = true
	case w == "about":
		m.about = true
	}
	return cl, false
}

// readObject reads w, wd's word with typos corrected, as an object and
// its number.
func (x *externalSet) readObject(rs *requestShape, wd requestWord, w string) {
	// an abbreviation's number is its expansion's (PRs: pull requests)
	if e := x.glossENMap[w]; e != "" && !wd.added && abbreviates(w, e) {
		f := strings.Fields(e)
		if last := f[len(f)-1]; x.objVocab[objStem(last)] {
			if isPlural(last) {
				rs.plural = true
			} else {
				rs.singular = true
			}
		}
	}
	if s := objStem(w); x.objVocab[s] {
		rs.objs[s] = true
		switch {
		case wd.added:
		case isPlural(w):
			rs.plural = true
		default:
			rs.singular = true
		}
	}
}

// impliedObjects adds the objects the request implies without naming
// them.
func (x *externalSet) impliedObjects(rs *requestShape, hashNum bool) {
	// A bare #99 of a repository (close #99 in acme/cli) is its issue or
	// pull request: code hosts number both so.
	if repo := objStem("repository"); hashNum && rs.objs[repo] && !rs.objs[objStem("issue")] && !rs.objs[objStem("request")] {
		for _, w := range []string{"issue", "pull", "request"} {
			if x.objVocab[objStem(w)] {
				rs.objs[objStem(w)] = true
			}
		}
	}
	// What one sends, posts or tells is a message ("post in #deploys:
	// v2.3 is live"), when the request names nothing else to send.
	if msg := objStem("message"); rs.verbs["send"] && x.objVocab[msg] && !slices.ContainsFunc(slices.Collect(maps.Keys(rs.objs)), func(o string) bool {
		return o != objStem("channel") && o != objStem("user") && o != objStem("thread")
	}) {
		rs.objs[msg] = true
	}
}

// impliedVerbs adds the verbs the request's form and number imply.
func impliedVerbs(rs *requestShape, m requestMarks) {
	// Adding to a numbered thing (a label to issue 40) changes it: the
	// thing exists, so its create_ is not what is asked (see fit).
	if rs.verbs["create"] && len(rs.numbered) > 0 {
		rs.verbs["update"] = true
	}
	one := m.ident || (rs.singular && !rs.plural)
	switch {
	case m.either && one:
		rs.verbs["get"] = true
	case m.either && rs.plural:
		rs.verbs["list"] = true
	case m.either:
		rs.verbs["get"], rs.verbs["list"] = true, true
	}
	// A number names one thing ("issue #77"): read it, unless the request
	// says what else to do with it ("reply to issue #77").
	if m.ident && !rs.acts() {
		rs.verbs["get"] = true
	} else if rs.plural && !m.ident {
		rs.verbs["list"] = true
	}
	// A question about a topic ("what do you remember about Atlas") is a
	// search when nothing else is asked to be done.
	if m.about && !rs.verbs["create"] && !rs.verbs["update"] && !rs.verbs["delete"] && !rs.verbs["send"] && !rs.verbs["move"] {
		rs.verbs["search"] = true
	}
}

// abbreviates reports whether a glossary key shortens its expansion: the
// initials (pr, prs: pull requests) or the start of its first word (repo,
// dirs), not a synonym (people: users).
func abbreviates(key, expansion string) bool {
	f := strings.Fields(expansion)
	k := strings.TrimSuffix(key, "s")
	var initials strings.Builder
	for _, w := range f {
		initials.WriteByte(w[0])
	}
	return len(k) >= 2 && (k == initials.String() || strings.HasPrefix(f[0], k))
}

// openState are the words before "open" that make it a state: "still
// open", "are open", "the open PRs".
var openState = map[string]bool{"still": true, "are": true, "is": true, "the": true, "all": true, "currently": true, "remain": true, "stay": true}

// askedPast reports whether an English request asks what was done: it
// opens with what, which, who or how and holds did, have or has ("what
// comments did people leave on PR 5"). Its verbs of making (leave, post,
// reply) are then what others did, and the request a reading.
func askedPast(text []byte) bool {
	fields := strings.Fields(string(text))
	if len(fields) < 3 {
		return false
	}
	switch strings.Trim(fields[0], ",.:;?!") {
	case "what", "which", "who", "how":
	case "did", "has", "have", "had":
		// a yes/no question about what was done ("did anyone request
		// changes on PR 4", "has anyone replied")
		return true
	default:
		return false
	}
	for _, f := range fields[1:] {
		switch strings.Trim(f, ",.:;?!") {
		case "did", "have", "has", "had":
			return true
		}
	}
	return false
}

func isNumber(w string) bool {
	return strings.Trim(w, "0123456789") == ""
}

// isPlus reports whether the text between two numbers adds them.
func isPlus(between []byte) bool {
	b := strings.TrimSpace(string(between))
	return b == "+" || b == "加" || b == "plus" || b == "and"
}

// acts reports whether the request's verbs ask for a change or an action,
// not a reading.
func (rs requestShape) acts() bool {
	for v := range rs.verbs {
		if v != "get" && v != "list" && v != "search" && v != "navigate" {
			return true
		}
	}
	return false
}

// known reports whether a word is in the tools' text: not a typo.
func (x *externalSet) known(w string) bool {
	_, ok := x.lex.vocab[string(stem([]byte(w)))]
	return ok
}

// correct returns the name word one edit (or one swap of neighbours) away
// from w, if there is exactly one.
func (x *externalSet) correct(w string) (string, bool) {
	found := ""
	for _, v := range x.typoVocab {
		if len(v) >= len(w)-1 && len(v) <= len(w)+1 && editDistance1(w, v) {
			if found != "" && found != v {
				return "", false
			}
			found = v
		}
	}
	return found, found != ""
}

// editDistance1 reports whether a and b differ by one insertion, deletion,
// substitution or swap of adjacent letters.
func editDistance1(a, b string) bool {
	if a == b {
		return false
	}
	la, lb := len(a), len(b)
	if la < lb {
		a, b, la, lb = b, a, lb, la
	}
	if la-lb > 1 {
		return false
	}
	i := 0
	for i < lb && a[i] == b[i] {
		i++
	}
	if la == lb {
		if a[i+1:] == b[i+1:] {
			return true // substitution
		}
		return i+1 < la && a[i] == b[i+1] && a[i+1] == b[i] && a[i+2:] == b[i+2:] // swap
	}
	return a[i+1:] == b[i:] // a has one letter more
}

// allGeneric reports whether every object word of a name is one that the
// names of three servers or more hold (file, directory): such a name
// fitting a request that names no server says little about which server.
func (x *externalSet) allGeneric(sh nameShape) bool {
	for _, o := range sh.objs {
		if !x.generic[o] {
			return false
		}
	}
	return true
}

// fit scores how well a tool's name shape fits the request's: the share
// of its object words the request holds (2), its verb being the request's
// (1, or -1 when the request means another), a whole fit (1 more), and
// the object's number agreeing (0.3). It
// reports whether the fit is whole: every object word there and the verb,
// if the name has one, meant. A name with no object words (navigate)
// fits wholly by its verb only where the request names its server (match
// checks that): "open" alone does not pick a browser tool out of every
// server.
func (rs requestShape) fit(sh nameShape) (float64, bool) {
	matched := 0
	for i, o := range sh.objs {
		if rs.objs[o] || (rs.plural && batchWords[o]) || slices.ContainsFunc(sh.objVerbs[i], func(v string) bool { return rs.verbs[v] }) {
			matched++ // the object, or the action it names ("find" for a search)
		}
	}
	verbOK := false
	for _, v := range sh.verbs {
		if rs.verbs[v] {
			verbOK = true
			break
		}
	}
	// create_issue for "issue 40": that issue exists
	if verbOK && len(rs.numbered) > 0 && !slices.ContainsFunc(sh.verbs, func(v string) bool { return v != "create" }) &&
		!slices.ContainsFunc(sh.objs, func(o string) bool { return !rs.numbered[o] }) {
		verbOK = false
	}
	if matched == 0 {
		switch {
		case len(sh.objs) == 0 && verbOK:
			return 2, true
		case verbOK:
			return 0.5, false // the verb alone: a tie-break among a named server's tools
		}
		return 0, false
	}
	score := 2 * float64(matched) / float64(len(sh.objs))
	switch {
	case verbOK:
		score++
	case len(sh.verbs) > 0 && len(rs.verbs) > 0:
		score-- // the request means another action: a sibling's
	}
	whole := matched == len(sh.objs) && (len(sh.verbs) == 0 || verbOK)
	if whole {
		score++
	}
	if (rs.plural && sh.plural) || (rs.singular && !rs.plural && !sh.plural) {
		score += 0.3
	}
	// one thing asked of a name that takes several (read_multiple_files)
	if rs.singular && !rs.plural && slices.ContainsFunc(sh.objs, func(o string) bool { return batchWords[o] }) {
		score--
	}
	return score, whole
}

// withArtefacts appends the object words a request's artefacts stand for:
// "file" for a file name (README.md, notes/retro.md), "url" for a URL, and
// "channel" for a chat channel written #name (#general, #行销; #123 is a
// number, see shapeOfRequest). Files and URLs count only in a request that
// names a server: native tools read files and URLs too, and a file name
// alone must not pull in every server's get_file.
//
// Naming a server, the file names count (two or more make the object
// plural, one singular), a path without an extension (/data/exports, ~/notes/) is a
// directory, and a wildcard pattern (*.log) asks for a search.
func withArtefacts(norm, words []byte, named bool) (_ []byte, files int) {
	for _, sp := range deadSpans(norm, nil) {
		if !named {
			break
		}
		at := int(sp[0])
		if at >= 3 && string(norm[at-3:at]) == "://" || hasPrefix(norm[at:], "www.") {
			words = append(words, " url"...)
		} else {
			words = append(words, " file"...)
			files++
		}
	}
	dir, glob, slug := pathShapes(norm)
	if slug && !named {
		// an owner/name repository names a code host: its file names count
		words, files = withArtefacts(norm, words, true)
		return words, files
	}
	if named && dir {
		words = append(words, " directory"...)
	}
	if named && glob {
		words = append(words, " search files"...)
	}
	if slug && !dir {
		words = append(words, " repository"...)
	}
	if emojiShortcode(norm) {
		words = append(words, " reaction emoji"...)
	}
	if codeSpan(norm) {
		words = append(words, " code"...)
	}
	for i := 0; i+1 < len(norm); i++ {
		if norm[i] == '#' && (i == 0 || !isWordByte(norm[i-1])) && !('0' <= norm[i+1] && norm[i+1] <= '9') && norm[i+1] != ' ' {
			words = append(words, " channel"...)
			break
		}
	}
	return words, files
}

// emojiShortcode reports whether text holds an emoji written as chat
// apps do (:tada:, :+1:, :white_check_mark:): a reaction.
func emojiShortcode(text []byte) bool {
	for i := 0; i < len(text); i++ {
		if text[i] != ':' || (i > 0 && isWordByte(text[i-1])) {
			continue
		}
		j := i + 1
		for j < len(text) && (isWordByte(text[j]) && text[j] < 0x80 || text[j] == '_' || text[j] == '+' || text[j] == '-') {
			j++
		}
		if j == i+1 || j == len(text) || text[j] != ':' || (j+1 < len(text) && isWordByte(text[j+1])) {
			continue
		}
		if name := string(text[i+1 : j]); hasLetter(text[i+1:j]) || name == "+1" || name == "-1" {
			return true
		}
	}
	return false
}

// codeSpan reports whether text holds a span in backticks that reads as
// code rather than a name: with a space, a parenthesis or a brace in it
// (`func NewLeaseManager`, `foo()`).
func codeSpan(text []byte) bool {
	for s := string(text); ; {
		i := strings.IndexByte(s, '`')
		if i < 0 {
			return false
		}
		j := strings.IndexByte(s[i+1:], '`')
		if j < 0 {
			return false
		}
		if strings.ContainsAny(s[i+1:i+1+j], " ({") {
			return true
		}
		s = s[i+2+j:]
	}
}

// pathShapes reports whether normalised text holds a directory path (a
// token starting with /, ~/ or ./ whose last part has no extension), a
// wildcard pattern (*.log, data-*) and an owner/name slug (torvalds/linux,
// acme/api: one slash between two names, no extension), which code hosts
// use for a repository.
func pathShapes(norm []byte) (dir, glob, slug bool) {
	for i := 0; i < len(norm); {
		if norm[i] == ' ' {
			i++
			continue
		}
		j := i
		for j < len(norm) && norm[j] != ' ' && norm[j] < 0x80 {
			j++
		}
		if j == i {
			i++
			continue
		}
		tok := string(norm[i:j])
		if strings.Contains(tok, "*") {
			glob = true
		} else if len(tok) > 1 && (tok[0] == '/' || strings.HasPrefix(tok, "~/") || strings.HasPrefix(tok, "./")) && !strings.Contains(tok, "//") {
			last := strings.TrimRight(tok, "/.,:;")
			if k := strings.LastIndexByte(last, '/'); k >= 0 && !strings.Contains(last[k:], ".") {
				dir = true
			}
		} else if isSlug(trimHashNumber(strings.TrimRight(tok, ".,:;?)"))) {
			slug = true
		}
		i = j
	}
	return dir, glob, slug
}

// trimHashNumber drops a trailing #123 (acme/cli#19: an issue or pull
// request of the repository acme/cli).
func trimHashNumber(tok string) string {
	if i := strings.LastIndexByte(tok, '#'); i > 0 && i+1 < len(tok) && isNumber(tok[i+1:]) {
		return tok[:i]
	}
	return tok
}

// isSlug reports whether tok is owner/name: two names of letters, digits,
// - and _ around one slash, each starting with a letter or digit and
// holding a letter (12/25 is a date, and/or a choice of words: too short).
func isSlug(tok string) bool {
	owner, name, ok := strings.Cut(tok, "/")
	if !ok || len(owner) < 2 || len(name) < 2 || strings.Contains(name, "/") {
		return false
	}
	for _, part := range []string{owner, name} {
		if !isWordByte(part[0]) || !hasLetter([]byte(part)) {
			return false
		}
		for k := 0; k < len(part); k++ {
			if c := part[k]; !isWordByte(c) && c != '-' && c != '_' {
				return false
			}
		}
	}
	return true
}

// nearName reports whether normalised text holds a word that is a typo of
// a server's name of five letters or more: one edit or swap away with the
// same first letter ("githb", "slak", "notoin", "gitlabe"), or sharing all
// but the name's last three letters ("playwrite"). Such words are blanked
// in blank (same offsets as text), as the name itself is.
func nearName(text []byte, name string, blank []byte) bool {
	if len(name) < 5 {
		return false
	}
	found := false
	for i := 0; i < len(text); {
		if !isWordByte(text[i]) {
			i++
			continue
		}
		j := i
		for j < len(text) && isWordByte(text[j]) {
			j++
		}
		w := string(text[i:j])
		if w != name && len(w) >= 4 && w[0] == name[0] && (editDistance1(w, name) || (sharedPrefix(w, name) >= max(5, len(name)-3) && len(w) <= len(name)+3)) {
			found = true
			for k := i; k < j; k++ {
				blank[k] = ' '
			}
		}
		i = j
	}
	return found
}

func sharedPrefix(a, b string) int {
	n := 0
	for n < len(a) && n < len(b) && a[n] == b[n] {
		n++
	}
	return n
}
