package sqlcheck

import (
	"regexp"
	"strings"
)

// Options tune a check.
type Options struct {
	// Sensitive names tables that queries may not mention (case-insensitive;
	// "schema.table" entries match on the table part).
	Sensitive []string
	// NoExplain refuses EXPLAIN (the explain action adds its own).
	NoExplain bool
}

// Statement is an admitted query.
type Statement struct {
	Kind   string // select, with, values, table, explain
	SQL    string // the text without trailing semicolons
	Tokens []Token
}

// denyWords may not appear anywhere outside strings and quoted identifiers.
// Other statement words (SET, NOTIFY, PREPARE, LOAD...) are refused by the
// rule that the one statement starts with SELECT/WITH/VALUES/TABLE, so they
// stay usable as column names.
var denyWords = map[string]bool{
	// Data-changing statements, which PostgreSQL also accepts inside WITH.
	"INSERT": true, "UPDATE": true, "DELETE": true, "MERGE": true, "UPSERT": true,
	// SELECT ... INTO (a new table, variables, files).
	"INTO": true, "OUTFILE": true, "DUMPFILE": true, "INFILE": true,
	// Schema, privileges, files and transaction control: none can be part
	// of a SELECT, so their presence means a smuggled statement.
	"DROP": true, "ALTER": true, "CREATE": true, "TRUNCATE": true, "GRANT": true, "REVOKE": true,
	"COPY": true, "ATTACH": true, "DETACH": true, "PRAGMA": true, "VACUUM": true, "REINDEX": true,
	"EXECUTE": true, "EXEC": true, "CALL": true, "BEGIN": true, "COMMIT": true, "ROLLBACK": true,
}

// leadWords may start an admitted statement.
var leadWords = map[string]bool{"SELECT": true, "WITH": true, "VALUES": true, "TABLE": true}

// denyFuncs are functions with side effects outside the query: file and
// program access, sleeps and locks, large objects, remote connections,
// server control, settings, sequences, functions that run a query string.
var denyFuncs = regexp.MustCompile(`^(?i:` +
	`pg_read_file|pg_read_binary_file|pg_ls_.*|pg_stat_file|pg_file_.*|pg_sleep.*|lo_.*|dblink.*|` +
	`pg_terminate_backend|pg_cancel_backend|pg_reload_conf|pg_rotate_logfile|pg_logical_.*|pg_create_.*|` +
	`pg_drop_.*|pg_replication_.*|pg_switch_.*|pg_promote|pg_.*advisory.*|pg_notify|pg_backup_.*|` +
	`pg_start_backup|pg_stop_backup|pg_export_snapshot|pg_import_system_collations|pg_wal_replay_.*|` +
	`set_config|nextval|setval|query_to_xml.*|cursor_to_xml.*|table_to_xml.*|schema_to_xml.*|database_to_xml.*|` +
	`query_to_json.*|load_extension|readfile|writefile|edit|fts3_tokenizer|zipfile|sqlar_.*|` +
	`sleep|benchmark|load_file|get_lock|release_lock|release_all_locks|master_pos_wait|source_pos_wait|` +
	`sys_exec|sys_eval|xp_.*|sp_.*)$`)

// denyRelations are catalogs holding credentials or server files.
var denyRelations = map[string]bool{
	"PG_AUTHID": true, "PG_SHADOW": true, "PG_USER_MAPPING": true, "PG_USER_MAPPINGS": true,
	"PG_HBA_FILE_RULES": true, "PG_IDENT_FILE_MAPPINGS": true, "PG_FILE_SETTINGS": true,
}

// Check admits sql if it is one read-only query.
func Check(sql string, d Dialect, o Options) (*Statement, error) {
	toks, err := Tokenize(sql, d)
	if err != nil {
		return nil, err
	}
	// Trailing semicolons are fine; any other one means a second statement.
	text := sql
	end := len(toks)
	for end > 0 && toks[end-1].Kind == Punct && toks[end-1].Text == ";" {
		text = sql[:toks[end-1].Pos]
		end--
	}
	toks = toks[:end]
	text = strings.TrimSpace(text)
	if len(toks) == 0 {
		return nil, refuse(0, "empty query")
	}
	for _, t := range toks {
		if t.Kind == Punct && t.Text == ";" {
			return nil, refuse(t.Pos, "only one statement is allowed (found ';' in the middle)")
		}
	}
	st := &Statement{SQL: text, Tokens: toks}
	body := toks
	if toks[0].Kind == Word && toks[0].Upper() == "EXPLAIN" {
		if o.NoExplain {
			return nil, refuse(toks[0].Pos, "give the query without EXPLAIN; the explain action adds it")
		}
		st.Kind = "explain"
		body = skipExplainOptions(toks[1:])
		if len(body) == 0 {
			return nil, refuse(toks[0].Pos, "EXPLAIN needs a query")
		}
	}
	lead := 0
	for lead < len(body) && body[lead].Kind == Punct && body[lead].Text == "(" {
		lead++
	}
	if lead >= len(body) || body[lead].Kind != Word || !leadWords[body[lead].Upper()] {
		first := body[min(lead, len(body)-1)].Text
		return nil, refuse(body[0].Pos, "only read-only queries (SELECT, WITH, VALUES, EXPLAIN) are allowed; this statement starts with %q", first)
	}
	if st.Kind == "" {
		st.Kind = strings.ToLower(body[lead].Upper())
	}
	if err := checkWords(body, sensitiveNames(o.Sensitive)); err != nil {
		return nil, err
	}
	return st, nil
}

// skipExplainOptions drops EXPLAIN's options: "(ANALYZE, FORMAT JSON)",
// "ANALYZE VERBOSE", "QUERY PLAN", "FORMAT=JSON".
func skipExplainOptions(toks []Token) []Token {
	i := 0
	if i < len(toks) && toks[i].Kind == Punct && toks[i].Text == "(" {
		depth := 0
		for ; i < len(toks); i++ {
			if toks[i].Kind == Punct && toks[i].Text == "(" {
				depth++
			}
			if toks[i].Kind == Punct && toks[i].Text == ")" {
				depth--
				if depth == 0 {
					i++
					break
				}
			}
		}
		// "(" directly followed by SELECT is a parenthesised query, not options.
		if len(toks) > 1 && toks[1].Kind == Word && leadWords[toks[1].Upper()] {
			return toks
		}
	}
	for i < len(toks) {
		t := toks[i]
		if t.Kind == Word {
			switch t.Upper() {
			case "ANALYZE", "ANALYSE", "VERBOSE", "QUERY", "PLAN", "EXTENDED", "PARTITIONS":
				i++
				continue
			case "FORMAT":
				i++
				if i < len(toks) && toks[i].Text == "=" {
					i++
				}
				if i < len(toks) {
					i++
				}
				continue
			}
		}
		break
	}
	return toks[i:]
}

func containsWord(s, w string) bool {
	for i := 0; ; {
		j := strings.Index(s[i:], w)
		if j < 0 {
			return false
		}
		a, b := i+j, i+j+len(w)
		if (a == 0 || !isWordByte(s[a-1])) && (b == len(s) || !isWordByte(s[b])) {
			return true
		}
		i = a + 1
	}
}

func isWordByte(c byte) bool {
	return c == '_' || c >= '0' && c <= '9' || c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= 0x80
}

// sensitiveNames maps each sensitive table's unqualified name, upper-cased,
// to the name as configured.
func sensitiveNames(tables []string) map[string]string {
	sensitive := map[string]string{}
	for _, s := range tables {
		name := s
		if i := strings.LastIndexByte(s, '.'); i >= 0 {
			name = s[i+1:]
		}
		if name != "" {
			sensitive[strings.ToUpper(name)] = s
		}
	}
	return sensitive
}

// checkWords refuses data-changing words, credential relations, sensitive
// tables (also named inside strings), dangerous functions and locking
// clauses.
func checkWords(body []Token, sensitive map[string]string) error {
	for i, t := range body {
		switch t.Kind {
		case Word, QuotedIdent:
			u := t.Upper()
			if t.Kind == Word && denyWords[u] {
				return refuse(t.Pos, "%s is not allowed: queries are read-only", u)
			}
			if denyRelations[u] {
				return refuse(t.Pos, "%s holds credentials and is not available", t.Text)
			}
			if s, ok := sensitive[u]; ok {
				return refuse(t.Pos, "table %s is marked sensitive and is not available", s)
			}
			if i+1 < len(body) && body[i+1].Kind == Punct && body[i+1].Text == "(" && denyFuncs.MatchString(t.Text) {
				return refuse(t.Pos, "function %s is not allowed (side effects outside the query)", t.Text)
			}
			if t.Kind == Word && u == "FOR" && i+1 < len(body) && body[i+1].Kind == Word {
				switch body[i+1].Upper() {
				case "UPDATE", "SHARE", "NO", "KEY":
					return refuse(t.Pos, "locking clauses (FOR UPDATE/SHARE) are not allowed")
				}
			}
			if t.Kind == Word && u == "LOCK" {
				return refuse(t.Pos, "locking clauses are not allowed")
			}
		case String:
			for u, s := range sensitive {
				if containsWord(strings.ToUpper(t.Text), u) {
					return refuse(t.Pos, "table %s is marked sensitive and is not available", s)
				}
			}
		}
	}
	return nil
}
