package server

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"errors"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	mcpserver "github.com/mark3labs/mcp-go/server"

	"github.com/clawbridge/clawbridge/internal/store"
)

// Multi round-trip requests (MCP 2026-07-28): a server no longer sends a
// client elicitation/create; a tools/call answers with an input_required
// result carrying the question and an opaque requestState, and the client
// asks the person and sends the same call again with the answer. The state
// clawbridge hands out is a random id of a row in the store, bound to the
// caller, the tool and what the person is shown (shownHash), spent by the
// answer that uses it: an answer runs at most one call, only the call it was
// given for, and a state the server never issued (or already spent) is
// refused.

// addFixtures adds the conformance suite's test tools; set only in a
// binary built with -tags conformance (conformance_fixture.go).
var addFixtures func(*Server)

// confirmInput is the key of the confirmation question in inputRequests.
const confirmInput = "confirm"

var inputStateSteps = []store.Migration{{Version: 1, Stmts: []string{`CREATE TABLE IF NOT EXISTS input_states (
	state TEXT PRIMARY KEY, caller TEXT NOT NULL, tool TEXT NOT NULL, shown_hash TEXT NOT NULL, expires BIGINT NOT NULL)`}}}

// errBadState is the answer to a requestState that does not verify: it is
// a protocol error (the spec's "reject state that fails integrity
// verification"), not something to ask about again.
var errBadState = errors.New("requestState is unknown, expired or already used (an answer confirms one call once); call again without requestState and inputResponses to be asked anew")

// roundTrip carries a request's multi round-trip fields from the tool
// handler middleware to the confirmation, and a protocol error back.
type roundTrip struct {
	params mcp.MultiRoundTripParams
	err    error
}

type roundTripKey struct{}

// roundTrips is a tool handler middleware: it hands the request's
// requestState and inputResponses to the pipeline (the handlers take the
// arguments only) and turns a state that did not verify into a JSON-RPC
// error.
func (s *Server) roundTrips(next mcpserver.ToolHandlerFunc) mcpserver.ToolHandlerFunc {
	return func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		rt := &roundTrip{params: req.Params.MultiRoundTripParams}
		res, err := next(context.WithValue(ctx, roundTripKey{}, rt), req)
		if err == nil && rt.err != nil {
			return nil, rt.err
		}
		return res, err
	}
}

func roundTripOf(ctx context.Context) *roundTrip {
	rt, _ := ctx.Value(roundTripKey{}).(*roundTrip)
	if rt == nil {
		return &roundTrip{}
	}
	return rt
}

// caller is who a state (or a pending approval) belongs to: the session,
// or for a stateless request without a token, which has a fresh session
// each request, all such callers alike (they are all whoever reaches the
// loopback listener without a token).
func (s *session) caller() string {
	if s.kind == kindAnonymous {
		return "anonymous"
	}
	return s.key
}

// holdState stores a new state for the question about this call as shown.
func (c *confirmer) holdState(ctx context.Context, caller, toolName, hash string) (string, error) {
	var b [16]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", err
	}
	state := "irs_" + hex.EncodeToString(b[:])
	now := time.Now()
	err := c.st.Tx(ctx, func(tx *sql.Tx) error {
		if _, err := tx.Exec(`DELETE FROM input_states WHERE expires < $1`, now.Unix()); err != nil {
			return err
		}
		_, err := tx.Exec(`INSERT INTO input_states(state, caller, tool, shown_hash, expires) VALUES ($1,$2,$3,$4,$5)`,
			state, caller, toolName, hash, now.Add(c.open).Unix())
		return err
	})
	return state, err
}

// takeState spends a state of this caller and tool and returns the hash of
// what was shown with it; errBadState when there is no such state. Two
// retries with one state race for the one row: one of them gets it.
func (c *confirmer) takeState(ctx context.Context, state, caller, toolName string) (string, error) {
	var hash string
	err := c.st.Tx(ctx, func(tx *sql.Tx) error {
		var expires int64
		err := tx.QueryRow(`SELECT shown_hash, expires FROM input_states WHERE state = $1 AND caller = $2 AND tool = $3`,
			state, caller, toolName).Scan(&hash, &expires)
		if errors.Is(err, sql.ErrNoRows) {
			return errBadState
		}
		if err != nil {
			return err
		}
		res, err := tx.Exec(`DELETE FROM input_states WHERE state = $1`, state)
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n != 1 || expires < time.Now().Unix() {
			return errBadState
		}
		return nil
	})
	return hash, err
}

// askInput is the input_required result that asks the confirmation
// question under a new state.
func (s *Server) askInput(ctx context.Context, sess *session, toolName, what, hash string) (*mcp.CallToolResult, error) {
	state, err := s.confirmer.holdState(ctx, sess.caller(), toolName, hash)
	if err != nil {
		return nil, err
	}
	return mcpserver.NewInputRequestBuilder(state).Elicit(confirmInput, confirmQuestion(what)).ToolResult(), nil
}

// requestElicits reports whether a 2026-07-28 request's client declared
// elicitation: capabilities arrive with each request, not once per session.
func requestElicits(ctx context.Context) bool {
	info := mcpserver.RequestProtocolInfoFromContext(ctx)
	return info != nil && info.Modern && info.ClientCapabilities != nil && info.ClientCapabilities.Elicitation != nil
}
