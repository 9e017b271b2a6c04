package server

import (
	"context"
	"encoding/json"

	"github.com/mark3labs/mcp-go/mcp"
)

func (s *Server) addResources() {
	s.mcp.AddResource(mcp.NewResource("clawbridge://catalog", "catalog",
		mcp.WithResourceDescription("Every registered tool with its actions and permission levels"),
		mcp.WithMIMEType("application/json")),
		func(ctx context.Context, req mcp.ReadResourceRequest) ([]mcp.ResourceContents, error) {
			return jsonResource(req.Params.URI, s.catalog())
		})
	s.mcp.AddResource(mcp.NewResource("clawbridge://session/traces", "session traces",
		mcp.WithResourceDescription("The last 50 calls of this session (tool, action, status, duration) and how many trace rows the server dropped under load"),
		mcp.WithMIMEType("application/json")),
		func(ctx context.Context, req mcp.ReadResourceRequest) ([]mcp.ResourceContents, error) {
			return jsonResource(req.Params.URI, s.traces(ctx, s.sessionOf(ctx).key))
		})
	s.mcp.AddResource(mcp.NewResource("clawbridge://session/exposure", "session exposure",
		mcp.WithResourceDescription("This session's tool view: mode, tier, intents, confidence, pinned tools and the history of changes with reasons"),
		mcp.WithMIMEType("application/json")), s.exposureResource)
	s.mcp.AddResourceTemplate(mcp.NewResourceTemplate("clawbridge://results/{id}", "full results",
		mcp.WithTemplateDescription("Full text of a tool result that was cut for the model"),
		mcp.WithTemplateMIMEType("text/plain")), s.readResult)
}

type catalogEntry struct {
	Name        string         `json:"name"`
	Title       string         `json:"title"`
	Description string         `json:"description"`
	Actions     map[string]any `json:"actions"`
}

func (s *Server) catalog() []catalogEntry {
	var out []catalogEntry
	for _, t := range s.order {
		acts := map[string]any{}
		for _, a := range t.Actions {
			name := a.Name
			if name == "" {
				name = "run"
			}
			acts[name] = map[string]string{"level": string(a.Level), "timeout": string(a.Timeout)}
		}
		out = append(out, catalogEntry{Name: t.Name, Title: t.Title, Description: t.Description, Actions: acts})
	}
	return out
}

type traceRow struct {
	TraceID    string `json:"trace_id"`
	At         string `json:"at"`
	Tool       string `json:"tool"`
	Action     string `json:"action,omitempty"`
	Status     string `json:"status"`
	ErrorCode  string `json:"error_code,omitempty"`
	DurationMS int64  `json:"duration_ms"`
}

// sessionTraces is the traces resource: a session's recent calls, and the
// server-wide count of trace rows not stored (queue full or write failed).
type sessionTraces struct {
	Calls       []traceRow `json:"calls"`
	RowsDropped int64      `json:"trace_rows_dropped"`
}

// traces writes out the queued trace rows first, so a session sees its own
// calls up to the one before this read.
func (s *Server) traces(ctx context.Context, key string) sessionTraces {
	out := sessionTraces{Calls: []traceRow{}, RowsDropped: s.traceLog.Dropped()}
	if err := s.traceLog.Flush(ctx); err != nil {
		return out
	}
	rows, err := s.store.Read().QueryContext(ctx,
		`SELECT trace_id, at, tool, action, status, error_code, duration_ms FROM traces WHERE session = $1 ORDER BY at DESC LIMIT 50`, key)
	if err != nil {
		return out
	}
	defer rows.Close()
	for rows.Next() {
		var r traceRow
		if rows.Scan(&r.TraceID, &r.At, &r.Tool, &r.Action, &r.Status, &r.ErrorCode, &r.DurationMS) == nil {
			out.Calls = append(out.Calls, r)
		}
	}
	return out
}

func jsonResource(uri string, v any) ([]mcp.ResourceContents, error) {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return nil, err
	}
	return []mcp.ResourceContents{mcp.TextResourceContents{URI: uri, MIMEType: "application/json", Text: string(b)}}, nil
}
