package exposure

import (
	"reflect"
	"slices"
	"strings"
	"testing"
)

// githubLike is a server with many tools, most of them not about issues
// (names and descriptions as @modelcontextprotocol/server-github lists them).
func githubLike() []ExternalTool {
	defs := [][2]string{
		{"create_or_update_file", "Create or update a single file in a GitHub repository"},
		{"search_repositories", "Search for GitHub repositories"},
		{"create_repository", "Create a new GitHub repository in your account"},
		{"get_file_contents", "Get the contents of a file or directory from a GitHub repository"},
		{"push_files", "Push multiple files to a GitHub repository in a single commit"},
		{"create_issue", "Create a new issue in a GitHub repository"},
		{"create_pull_request", "Create a new pull request in a GitHub repository"},
		{"fork_repository", "Fork a GitHub repository to your account or specified organization"},
		{"create_branch", "Create a new branch in a GitHub repository"},
		{"list_commits", "Get list of commits of a branch in a GitHub repository"},
		{"list_issues", "List issues in a GitHub repository with filtering options"},
		{"update_issue", "Update an existing issue in a GitHub repository"},
		{"add_issue_comment", "Add a comment to an existing issue"},
		{"search_code", "Search for code across GitHub repositories"},
		{"search_issues", "Search for issues and pull requests across GitHub repositories"},
		{"search_users", "Search for users on GitHub"},
		{"get_issue", "Get details of a specific issue in a GitHub repository."},
		{"get_pull_request", "Get details of a specific pull request"},
		{"list_pull_requests", "List and filter repository pull requests"},
		{"create_pull_request_review", "Create a review on a pull request"},
		{"merge_pull_request", "Merge a pull request"},
		{"get_pull_request_files", "Get the list of files changed in a pull request"},
		{"get_pull_request_status", "Get the combined status of all status checks for a pull request"},
		{"update_pull_request_branch", "Update a pull request branch with the latest changes from the base branch"},
		{"get_pull_request_comments", "Get the review comments on a pull request"},
		{"get_pull_request_reviews", "Get the reviews on a pull request"},
	}
	out := make([]ExternalTool, len(defs))
	for i, d := range defs {
		out[i] = ExternalTool{Name: "github__" + d[0], Group: "github", Description: d[1],
			Params: []ExternalParam{{"owner", "Repository owner"}, {"repo", "Repository name"}}}
	}
	return out
}

func externalRouter(t *testing.T, tools []ExternalTool) *Router {
	t.Helper()
	r, err := NewRouter(Config{})
	if err != nil {
		t.Fatal(err)
	}
	r.SetExternal(tools)
	return r
}

// TestExternal_IssueRequestRecommendsIssueToolsOnly: a request about GitHub
// issues recommends the server's issue tools and none of its other 20. The
// decision is unsure (extended): a configured server's tools never make a
// decision sure, so the view's other tools are offered beside them.
func TestExternal_IssueRequestRecommendsIssueToolsOnly(t *testing.T) {
	r := externalRouter(t, githubLike())
	for _, q := range []string{"open a GitHub issue about the login bug", "list the open issues in my GitHub repo", "comment on GitHub issue 42"} {
		d := r.Route(q)
		rec := d.Recommended()
		var issue, other []string
		for _, n := range rec {
			if strings.HasPrefix(n, "github__") {
				if strings.Contains(n, "issue") {
					issue = append(issue, n)
				} else {
					other = append(other, n)
				}
			}
		}
		if len(issue) == 0 || len(other) > 0 || d.Tier != TierExtended {
			t.Errorf("%q: tier %s, issue tools %v, others %v", q, d.Tier, issue, other)
		}
		if n := len(r.Offered(d.Tools, d.Tier)); n > 16 {
			t.Errorf("%q: view of %d tools", q, n)
		}
	}
}

// TestExternal_HintsAndServerName: a server's hint keywords bring its tools
// in (any language); its hint intents do when detected; its bare name
// alone makes them alternatives, never recommended.
func TestExternal_HintsAndServerName(t *testing.T) {
	mem := []ExternalTool{
		{Name: "memory__create_entities", Group: "memory", Description: "Create multiple new entities in the knowledge graph", Keywords: []string{"remember", "记住"}},
		{Name: "memory__search_nodes", Group: "memory", Description: "Search for nodes in the knowledge graph based on a query", Keywords: []string{"remember", "记住"}},
	}
	ev := []ExternalTool{{Name: "everything__echo", Group: "everything", Description: "Echoes back the input string"}}
	notes := []ExternalTool{{Name: "notes__append", Group: "notes", Description: "Append a line", Intents: []string{"daily_assistant"}}}
	r := externalRouter(t, slices.Concat(mem, ev, notes))
	for _, q := range []string{"remember that Alice works at Acme", "记住：张三是产品经理"} {
		if rec := r.Route(q).Recommended(); !slices.Contains(rec, "memory__create_entities") || slices.Contains(rec, "everything__echo") {
			t.Errorf("%q: recommended %v", q, rec)
		}
	}
	if d := r.Route("delete everything in the tmp folder"); slices.Contains(d.Recommended(), "everything__echo") {
		t.Errorf("a server's bare name alone recommends nothing: %v", d.Tools)
	}
	// Named with no word of its tools' text (a Chinese request, English
	// descriptions): its tools are alternatives.
	if d := r.Route("用 everything 服务看看"); !slices.ContainsFunc(d.Tools, func(v ViewTool) bool { return v.Name == "everything__echo" && v.Tag == TagAlternative }) {
		t.Errorf("a named server's tools are alternatives: %v", d.Tools)
	}
	d := r.Route("remind me to call mom tomorrow at 9")
	if !slices.Contains(d.Intents, "daily_assistant") {
		t.Skipf("the tables no longer detect daily_assistant here: %v", d.Intents)
	}
	if !slices.ContainsFunc(d.Detection.External, func(m ExternalMatch) bool { return m.Name == "notes__append" }) {
		t.Errorf("a detected hint intent must bring its server's tools in: %+v", d.Detection.External)
	}
}

// TestExternal_NativeRoutingUnchanged: with external tools set, a request
// they do not match is decided exactly as without them.
func TestExternal_NativeRoutingUnchanged(t *testing.T) {
	plain, err := NewRouter(Config{})
	if err != nil {
		t.Fatal(err)
	}
	r := externalRouter(t, githubLike())
	for _, q := range []string{"合并这三个PDF", "chart sales by month from sales.xlsx", "what's the weather in Paris", "帮我写一份租房合同"} {
		a, b := plain.Route(q), r.Route(q)
		if len(b.Detection.External) > 0 {
			continue // matched: not this test's case
		}
		if !reflect.DeepEqual(a.Tools, b.Tools) || a.Tier != b.Tier || a.Confidence != b.Confidence {
			t.Errorf("%q changed: %v %s → %v %s", q, a.Tools, a.Tier, b.Tools, b.Tier)
		}
	}
}

// TestExternal_SwapDropsToolFromViewsAndPins: a tool removed from the set
// (held after a rug pull) leaves a session's view, pinned or not, on
// Refresh; IsRegistered follows the set.
func TestExternal_SwapDropsToolFromViewsAndPins(t *testing.T) {
	tools := githubLike()
	r := externalRouter(t, tools)
	s := r.NewSession(ModeTiered)
	s.Route("create a GitHub issue for the crash")
	s.CallStarted("github__create_issue", nil)
	if !slices.ContainsFunc(s.View(), func(v ViewTool) bool { return v.Name == "github__create_issue" }) {
		t.Fatalf("view %v", s.View())
	}
	r.SetExternal(slices.DeleteFunc(slices.Clone(tools), func(e ExternalTool) bool { return e.Name == "github__create_issue" }))
	if r.IsRegistered("github__create_issue") {
		t.Error("a dropped tool is still registered")
	}
	if !s.Refresh() {
		t.Error("Refresh must report the change")
	}
	if slices.ContainsFunc(s.View(), func(v ViewTool) bool { return v.Name == "github__create_issue" }) {
		t.Errorf("the dropped tool is still in the view: %v", s.View())
	}
	r.SetExternal(tools)
	if !s.Refresh() || !slices.ContainsFunc(s.View(), func(v ViewTool) bool { return v.Name == "github__create_issue" }) {
		t.Errorf("back in the set, back in the view (the last request is matched again): %v", s.View())
	}
	// Catalog and meta names are never external.
	r.SetExternal([]ExternalTool{{Name: "pdf_tool", Group: "x"}, {Name: FindTools, Group: "x"}})
	if len(r.External()) != 0 {
		t.Errorf("catalog names taken as external: %v", r.External())
	}
}

// TestExternal_ChineseRequestMeetsEnglishDescriptions: downstream tools are
// described in English; a Chinese request reaches them through the
// glossary's words, and routing stays deterministic.
func TestExternal_ChineseRequestMeetsEnglishDescriptions(t *testing.T) {
	r := externalRouter(t, githubLike())
	cases := map[string]string{
		"在 GitHub 上从 main 新建一个分支":      "github__create_branch",
		"在 GitHub 的 issue 42 下面留言":     "github__add_issue_comment",
		"合并 GitHub 上的 pull request 42": "github__merge_pull_request",
	}
	for q, want := range cases {
		d := r.Route(q)
		if !slices.Contains(d.Recommended(), want) {
			t.Errorf("%q: %s not recommended (%v)", q, want, d.Recommended())
		}
		for i := 0; i < 5; i++ {
			if again := r.Route(q); !reflect.DeepEqual(again.Tools, d.Tools) {
				t.Fatalf("%q: routing is not deterministic: %v then %v", q, d.Tools, again.Tools)
			}
		}
	}
}

// TestExternal_AbbreviationsSpelledOut: "PR" and "repo" meet descriptions
// that write "pull request" and "repository".
func TestExternal_AbbreviationsSpelledOut(t *testing.T) {
	r := externalRouter(t, githubLike())
	if rec := r.Route("merge PR 91 on github").Recommended(); !slices.Contains(rec, "github__merge_pull_request") {
		t.Errorf("merge PR: recommended %v", rec)
	}
	if rec := r.Route("fork the repo octo/site on github").Recommended(); !slices.Contains(rec, "github__fork_repository") {
		t.Errorf("fork the repo: recommended %v", rec)
	}
}
