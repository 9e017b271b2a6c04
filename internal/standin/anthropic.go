package standin

import (
	"encoding/json"
	"net/http"
	"strings"
)

// anthropic speaks the Messages API (POST /v1/messages), streaming when the
// request asks for it.
type anthropic struct{}

func (anthropic) parse(path string, body []byte) (Request, bool, error) {
	var in struct {
		System json.RawMessage `json:"system"`
		Tools  []struct {
			Name        string          `json:"name"`
			InputSchema json.RawMessage `json:"input_schema"`
		} `json:"tools"`
		Messages []struct {
			Role    string          `json:"role"`
			Content json.RawMessage `json:"content"`
		} `json:"messages"`
	}
	if err := json.Unmarshal(body, &in); err != nil {
		return Request{}, false, err
	}
	var r Request
	if !strings.HasSuffix(path, "/messages") {
		return r, false, nil // count_tokens and the like
	}
	r.System = textOf(in.System)
	r.ToolSchemas = map[string]json.RawMessage{}
	for _, t := range in.Tools {
		r.Tools = append(r.Tools, t.Name)
		r.ToolSchemas[t.Name] = t.InputSchema
	}
	texts := []string{r.System}
	names := map[any]string{} // tool_use id -> tool name
	for _, m := range in.Messages {
		var blocks []map[string]any
		if json.Unmarshal(m.Content, &blocks) != nil {
			var s string
			json.Unmarshal(m.Content, &s)
			texts = append(texts, s)
			continue
		}
		for _, b := range blocks {
			switch b["type"] {
			case "tool_use":
				names[b["id"]], _ = b["name"].(string)
			case "tool_result":
				r.Results = append(r.Results, Result{Tool: names[b["tool_use_id"]], Text: resultText(b["content"])})
			case "text":
				t, _ := b["text"].(string)
				texts = append(texts, t)
			}
		}
	}
	r.Text = strings.Join(texts, "\n")
	return r, len(r.Tools) > 0, nil
}

// textOf reads a system field: a string or a list of text blocks.
func textOf(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var blocks []struct {
		Text string `json:"text"`
	}
	json.Unmarshal(raw, &blocks)
	var parts []string
	for _, b := range blocks {
		parts = append(parts, b.Text)
	}
	return strings.Join(parts, "\n")
}

func (anthropic) reply(w http.ResponseWriter, req Request, name string, args map[string]any, text string) {
	if strings.HasSuffix(req.Path, "/count_tokens") {
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte(`{"input_tokens":100}`))
		return
	}
	var in struct {
		Stream bool   `json:"stream"`
		Model  string `json:"model"`
	}
	_ = json.Unmarshal(req.Body, &in)
	block := map[string]any{"type": "text", "text": text}
	stop := "end_turn"
	if name != "" {
		if args == nil {
			args = map[string]any{}
		}
		block = map[string]any{"type": "tool_use", "id": "toolu_" + randomID(), "name": name, "input": args}
		stop = "tool_use"
	}
	msg := map[string]any{
		"id": "msg_" + randomID(), "type": "message", "role": "assistant", "model": in.Model,
		"content": []any{block}, "stop_reason": stop, "stop_sequence": nil,
		"usage": map[string]any{"input_tokens": 10, "output_tokens": 10},
	}
	if !in.Stream {
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(msg)
		return
	}
	w.Header().Set("Content-Type", "text/event-stream")
	start := map[string]any{}
	for k, v := range msg {
		start[k] = v
	}
	start["content"] = []any{}
	start["stop_reason"] = nil
	writeSSE(w, "message_start", map[string]any{"type": "message_start", "message": start})
	if name != "" {
		b, _ := json.Marshal(args)
		writeSSE(w, "content_block_start", map[string]any{"type": "content_block_start", "index": 0,
			"content_block": map[string]any{"type": "tool_use", "id": block["id"], "name": name, "input": map[string]any{}}})
		writeSSE(w, "content_block_delta", map[string]any{"type": "content_block_delta", "index": 0,
			"delta": map[string]any{"type": "input_json_delta", "partial_json": string(b)}})
	} else {
		writeSSE(w, "content_block_start", map[string]any{"type": "content_block_start", "index": 0,
			"content_block": map[string]any{"type": "text", "text": ""}})
		writeSSE(w, "content_block_delta", map[string]any{"type": "content_block_delta", "index": 0,
			"delta": map[string]any{"type": "text_delta", "text": text}})
	}
	writeSSE(w, "content_block_stop", map[string]any{"type": "content_block_stop", "index": 0})
	writeSSE(w, "message_delta", map[string]any{"type": "message_delta",
		"delta": map[string]any{"stop_reason": stop, "stop_sequence": nil}, "usage": map[string]any{"output_tokens": 10}})
	writeSSE(w, "message_stop", map[string]any{"type": "message_stop"})
}
