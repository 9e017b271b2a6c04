package tool

import "context"

// Host is what the server offers a tool that works between calls (the cron
// scheduler), without the tool knowing MCP: telling the connected sessions
// something, and running a tool call through the same pipeline as a
// client's call.
type Host interface {
	// Notify sends a log notification (notifications/message) to every
	// connected session; it reports whether any session was connected.
	Notify(level, logger string, data map[string]any) bool
	// Run runs one tool call through the pipeline on the scheduler's own
	// session. The call skips confirmation: it was confirmed when the job
	// holding it was added (see Level).
	Run(ctx context.Context, tool, action string, args map[string]any) (summary string, err error)
	// Level is the level a call to tool/action with args would have, or an
	// error naming what is unknown.
	Level(tool, action string, args map[string]any) (Level, error)
}

// Attach, on a Tool, gives the tool its Host when the server is built and
// returns the loop to run while the server serves (nil: none). The loop
// must return when ctx ends; the server waits for it at shutdown.
type Attach func(h Host) (loop func(ctx context.Context))
