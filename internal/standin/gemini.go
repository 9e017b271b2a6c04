package standin

import (
	"encoding/json"
	"net/http"
	"strings"
)

// gemini speaks generateContent and streamGenerateContent (?alt=sse) at
// /v1beta/models/{model}:{method}.
type gemini struct{}

func (gemini) parse(path string, body []byte) (Request, bool, error) {
	var in struct {
		SystemInstruction *struct {
			Parts []struct {
				Text string `json:"text"`
			} `json:"parts"`
		} `json:"systemInstruction"`
		Tools []struct {
			FunctionDeclarations []struct {
				Name                 string          `json:"name"`
				Parameters           json.RawMessage `json:"parameters"`
				ParametersJSONSchema json.RawMessage `json:"parametersJsonSchema"`
			} `json:"functionDeclarations"`
		} `json:"tools"`
		Contents []struct {
			Role  string `json:"role"`
			Parts []struct {
				Text             string `json:"text"`
				FunctionResponse *struct {
					Name     string `json:"name"`
					Response any    `json:"response"`
				} `json:"functionResponse"`
			} `json:"parts"`
		} `json:"contents"`
	}
	var r Request
	if !strings.Contains(path, ":generateContent") && !strings.Contains(path, ":streamGenerateContent") {
		return r, false, nil // countTokens, embeddings
	}
	if err := json.Unmarshal(body, &in); err != nil {
		return r, false, err
	}
	if in.SystemInstruction != nil {
		var parts []string
		for _, p := range in.SystemInstruction.Parts {
			parts = append(parts, p.Text)
		}
		r.System = strings.Join(parts, "\n")
	}
	r.ToolSchemas = map[string]json.RawMessage{}
	for _, t := range in.Tools {
		for _, f := range t.FunctionDeclarations {
			r.Tools = append(r.Tools, f.Name)
			s := f.ParametersJSONSchema
			if len(s) == 0 {
				s = f.Parameters
			}
			r.ToolSchemas[f.Name] = s
		}
	}
	texts := []string{r.System}
	for _, c := range in.Contents {
		for _, p := range c.Parts {
			texts = append(texts, p.Text)
			if p.FunctionResponse != nil {
				r.Results = append(r.Results, Result{Tool: p.FunctionResponse.Name, Text: resultText(p.FunctionResponse.Response)})
			}
		}
	}
	r.Text = strings.Join(texts, "\n")
	return r, len(r.Tools) > 0, nil
}

func (gemini) reply(w http.ResponseWriter, req Request, name string, args map[string]any, text string) {
	if strings.Contains(req.Path, ":countTokens") {
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte(`{"totalTokens":100}`))
		return
	}
	if name == "" {
		// Side requests that want JSON (Gemini CLI's complexity router)
		// get an instance of their schema, or the client retries.
		var in struct {
			GenerationConfig struct {
				ResponseJSONSchema map[string]any `json:"responseJsonSchema"`
			} `json:"generationConfig"`
		}
		if json.Unmarshal(req.Body, &in) == nil && in.GenerationConfig.ResponseJSONSchema != nil {
			b, _ := json.Marshal(instance(in.GenerationConfig.ResponseJSONSchema))
			text = string(b)
		}
	}
	part := map[string]any{"text": text}
	if name != "" {
		if args == nil {
			args = map[string]any{}
		}
		part = map[string]any{"functionCall": map[string]any{"name": name, "args": args}}
	}
	resp := map[string]any{
		"candidates": []any{map[string]any{
			"content": map[string]any{"role": "model", "parts": []any{part}}, "finishReason": "STOP", "index": 0,
		}},
		"usageMetadata": map[string]any{"promptTokenCount": 10, "candidatesTokenCount": 10, "totalTokenCount": 20},
		"modelVersion":  "standin",
	}
	if strings.Contains(req.Path, ":streamGenerateContent") {
		w.Header().Set("Content-Type", "text/event-stream")
		writeSSE(w, "", resp)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(resp)
}

// instance is the smallest value a JSON schema accepts, enough for a client
// that parses a structured side answer.
func instance(schema map[string]any) any {
	typ, _ := schema["type"].(string)
	switch strings.ToLower(typ) {
	case "object":
		out := map[string]any{}
		props, _ := schema["properties"].(map[string]any)
		for k, v := range props {
			if p, ok := v.(map[string]any); ok {
				out[k] = instance(p)
			}
		}
		return out
	case "array":
		return []any{}
	case "integer", "number":
		return 1
	case "boolean":
		return false
	}
	if e, ok := schema["enum"].([]any); ok && len(e) > 0 {
		return e[0]
	}
	return "standin"
}
