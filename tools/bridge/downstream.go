package bridge

import (
	"context"

	downstream "github.com/clawbridge/clawbridge/internal/bridge"
	"github.com/clawbridge/clawbridge/tools/tool"
)

// Downstream adapts internal/bridge's manager to the contract's
// tool.Downstream, for Deps.Bridge; nil (none configured) stays nil.
func Downstream(m *downstream.Manager) tool.Downstream {
	if m == nil {
		return nil
	}
	return servers{m}
}

type servers struct{ m *downstream.Manager }

func (s servers) Servers() []tool.DownstreamServer {
	rows := []tool.DownstreamServer{}
	for _, st := range s.m.Status() {
		rows = append(rows, tool.DownstreamServer{Name: st.Name, State: string(st.State), Tools: st.Tools, Level: st.Level,
			Publish: st.Publish, Held: len(st.Held), PID: st.PID, LastError: st.LastError})
	}
	return rows
}

func (s servers) Tools(ctx context.Context, server string) ([]tool.DownstreamTool, error) {
	defs, err := s.m.Tools(ctx, server)
	if err != nil {
		return nil, err
	}
	out := make([]tool.DownstreamTool, len(defs))
	for i, d := range defs {
		out[i] = tool.DownstreamTool{Name: d.Name, Description: d.Description}
	}
	return out, nil
}

func (s servers) Level(server, name string) tool.Level { return Level(s.m, server, name) }

func (s servers) Call(ctx context.Context, server, name string, args map[string]any, progress func(done, total float64, msg string)) (*tool.Result, error) {
	return Call(ctx, s.m, server, name, args, progress)
}
