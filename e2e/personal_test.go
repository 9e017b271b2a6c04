package e2e

// diary, finance and education_tool through a real MCP client over stdio,
// one flow each on one store: a diary entry found by a Chinese search and
// updated with its earlier version kept; an Alipay export imported twice
// adds its rows once and the summary counts them in exact cents; a
// flashcard reviewed with SM-2 moves to tomorrow, and a seeded math quiz
// is the same twice. Bad input names its field and writes nothing.

import (
	"reflect"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"
)

func TestPersonal_DiaryFinanceEducationThroughMCP(t *testing.T) {
	e := newEnv(t, "CLAWBRIDGE_EXPOSURE=full")
	workspaceFixture(t, e, "finance/alipay_2024.csv", "alipay.csv")
	c := stdioClient(t, e, mcp.ProtocolVersion20250618)

	// diary
	added := callOK(t, c, "diary", map[string]any{"action": "add", "date": "2026-11-30", "text": "今天学习了机器学习, then wrote Go code", "mood": "good", "tags": []any{"study"}})
	id := added["id"].(string)
	found := callOK(t, c, "diary", map[string]any{"action": "search", "query": "机器学习"})["entries"].([]any)
	if len(found) != 1 || found[0].(map[string]any)["id"] != id {
		t.Fatalf("search 机器学习: %v", found)
	}
	callOK(t, c, "diary", map[string]any{"action": "update", "id": id, "text": "改过的日记"})
	got := callOK(t, c, "diary", map[string]any{"action": "get", "id": id, "versions": true})["entries"].([]any)[0].(map[string]any)
	versions := got["versions"].([]any)
	if got["text"] != "改过的日记" || len(versions) != 1 || versions[0].(map[string]any)["text"] != "今天学习了机器学习, then wrote Go code" {
		t.Fatalf("update kept no earlier version: %v", got)
	}
	callRefused(t, c, "diary", map[string]any{"action": "add", "date": "2026-13-01", "text": "x"}, "date")
	if n := len(callOK(t, c, "diary", map[string]any{"action": "list"})["entries"].([]any)); n != 1 {
		t.Fatalf("a refused add wrote something: %d entries", n)
	}

	// finance
	first := callOK(t, c, "finance", map[string]any{"action": "import", "path": "alipay.csv"})
	again := callOK(t, c, "finance", map[string]any{"action": "import", "path": "alipay.csv"})
	if first["format"] != "alipay" || first["added"] == float64(0) || again["added"] != float64(0) || again["duplicates"] != first["added"] {
		t.Fatalf("import twice: %v then %v", first, again)
	}
	callOK(t, c, "finance", map[string]any{"action": "add", "kind": "expense", "amount": "0.10", "category": "food", "account": "cash", "date": "2026-11-02"})
	callOK(t, c, "finance", map[string]any{"action": "add", "kind": "expense", "amount_cents": 20, "category": "food", "account": "cash", "date": "2026-11-02"})
	var cash map[string]any
	for _, a := range callOK(t, c, "finance", map[string]any{"action": "summary"})["by_account"].([]any) {
		if a.(map[string]any)["account"] == "cash" {
			cash = a.(map[string]any)
		}
	}
	if cash == nil || cash["expense"] != "0.30" {
		t.Fatalf("0.10 + 20 cents: %v", cash)
	}
	callRefused(t, c, "finance", map[string]any{"action": "add", "kind": "expense", "amount": "1.005", "category": "food"}, "amount")

	// education_tool
	card := callOK(t, c, "education_tool", map[string]any{"action": "add_cards", "deck": "words", "cards": []any{map[string]any{"front": "apple", "back": "苹果"}}})["added"].([]any)[0].(map[string]any)
	rev := callOK(t, c, "education_tool", map[string]any{"action": "review", "id": card["id"], "quality": 5})
	if rev["interval_days"] != float64(1) || rev["repetitions"] != float64(1) || rev["easiness"] != "2.6" {
		t.Fatalf("SM-2 after a first review with quality 5: %v", rev)
	}
	q1 := callOK(t, c, "education_tool", map[string]any{"action": "math_quiz", "grade": 3, "count": 3, "seed": 7})
	q2 := callOK(t, c, "education_tool", map[string]any{"action": "math_quiz", "grade": 3, "count": 3, "seed": 7})
	if !reflect.DeepEqual(q1["problems"], q2["problems"]) || len(q1["problems"].([]any)) != 3 {
		t.Fatalf("seeded quiz differs: %v vs %v", q1, q2)
	}
	callRefused(t, c, "education_tool", map[string]any{"action": "review", "id": card["id"], "quality": 6}, "quality")
}
