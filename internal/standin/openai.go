package standin

import (
	"encoding/json"
	"net/http"
	"strings"
)

// openai speaks the Responses API (POST /v1/responses, streamed as server-sent
// events), which Codex uses.
type openai struct{}

func (openai) parse(path string, body []byte) (Request, bool, error) {
	var in struct {
		Instructions string `json:"instructions"`
		Tools        []struct {
			Type       string          `json:"type"`
			Name       string          `json:"name"`
			Parameters json.RawMessage `json:"parameters"`
			// A namespace (Codex puts each MCP server's tools in one,
			// its description the server's instructions) holds functions.
			Description string `json:"description"`
			Tools       []struct {
				Name       string          `json:"name"`
				Parameters json.RawMessage `json:"parameters"`
			} `json:"tools"`
		} `json:"tools"`
		Input []map[string]any `json:"input"`
	}
	var r Request
	if !strings.HasSuffix(path, "/responses") {
		return r, false, nil
	}
	if err := json.Unmarshal(body, &in); err != nil {
		return r, false, err
	}
	r.System = in.Instructions
	r.ToolSchemas = map[string]json.RawMessage{}
	r.namespaced = map[string][2]string{}
	var nsText []string
	for _, t := range in.Tools {
		if t.Type == "namespace" {
			nsText = append(nsText, t.Description)
			for _, f := range t.Tools {
				full := t.Name + "__" + f.Name
				r.Tools = append(r.Tools, full)
				r.ToolSchemas[full] = f.Parameters
				r.namespaced[full] = [2]string{t.Name, f.Name}
			}
			continue
		}
		if t.Name == "" {
			continue
		}
		r.Tools = append(r.Tools, t.Name)
		r.ToolSchemas[t.Name] = t.Parameters
	}
	texts := []string{}
	names := map[any]string{} // call_id -> tool name
	for _, it := range in.Input {
		switch it["type"] {
		case "function_call", "custom_tool_call":
			name, _ := it["name"].(string)
			if ns, _ := it["namespace"].(string); ns != "" {
				name = ns + "__" + name
			}
			names[it["call_id"]] = name
		case "function_call_output", "custom_tool_call_output":
			r.Results = append(r.Results, Result{Tool: names[it["call_id"]], Text: resultText(it["output"])})
		case "message":
			// Developer messages carry instructions too (Codex sends its
			// own and the user's there).
			if it["role"] == "developer" || it["role"] == "system" {
				r.System += "\n" + resultText(it["content"])
			}
			texts = append(texts, resultText(it["content"]))
		}
	}
	r.Text = r.System + "\n" + strings.Join(nsText, "\n") + "\n" + strings.Join(texts, "\n")
	return r, len(r.Tools) > 0, nil
}

func (openai) reply(w http.ResponseWriter, req Request, name string, args map[string]any, text string) {
	id := "resp_" + randomID()
	var item map[string]any
	if name != "" {
		if args == nil {
			args = map[string]any{}
		}
		b, _ := json.Marshal(args)
		item = map[string]any{"type": "function_call", "id": "fc_" + randomID(), "call_id": "call_" + randomID(),
			"name": name, "arguments": string(b), "status": "completed"}
		if ns, ok := req.namespaced[name]; ok {
			item["namespace"], item["name"] = ns[0], ns[1]
		}
	} else {
		item = map[string]any{"type": "message", "id": "msg_" + randomID(), "role": "assistant", "status": "completed",
			"content": []any{map[string]any{"type": "output_text", "text": text, "annotations": []any{}}}}
	}
	usage := map[string]any{"input_tokens": 10, "output_tokens": 10, "total_tokens": 20,
		"input_tokens_details": map[string]any{"cached_tokens": 0}, "output_tokens_details": map[string]any{"reasoning_tokens": 0}}
	w.Header().Set("Content-Type", "text/event-stream")
	writeSSE(w, "response.created", map[string]any{"type": "response.created",
		"response": map[string]any{"id": id, "object": "response", "status": "in_progress", "output": []any{}}})
	writeSSE(w, "response.output_item.added", map[string]any{"type": "response.output_item.added", "output_index": 0, "item": item})
	if name == "" {
		writeSSE(w, "response.output_text.delta", map[string]any{"type": "response.output_text.delta",
			"item_id": item["id"], "output_index": 0, "content_index": 0, "delta": text})
	}
	writeSSE(w, "response.output_item.done", map[string]any{"type": "response.output_item.done", "output_index": 0, "item": item})
	writeSSE(w, "response.completed", map[string]any{"type": "response.completed",
		"response": map[string]any{"id": id, "object": "response", "status": "completed", "output": []any{item}, "usage": usage}})
}
