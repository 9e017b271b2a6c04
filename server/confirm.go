package server

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	mcpserver "github.com/mark3labs/mcp-go/server"

	"github.com/clawbridge/clawbridge/internal/store"
	"github.com/clawbridge/clawbridge/tools/tool"
)

// confirmer implements confirmation of high actions. Tokens are bound to the
// session, the tool and a hash of the exact arguments and of the preview
// shown (which holds or names by sha256 the content the call acts on),
// expire, and are spent on use inside a transaction so a token runs its call
// once. Pending calls (the approve policy) are in approve.go.
type confirmer struct {
	st     *store.Store
	policy string
	ttl    time.Duration // token lifetime
	wait   time.Duration // how long a pending call waits for a decision
	open   time.Duration // how long it stays open for one (pendingOpen)
	poll   time.Duration // how often the store is read while waiting
}

func newConfirmer(st *store.Store, policy string, wait time.Duration) (*confirmer, error) {
	err := st.MigrateVersions("confirm", store.Migration{Version: 1, Stmts: []string{
		`CREATE TABLE IF NOT EXISTS confirm_tokens (
			token TEXT PRIMARY KEY, session TEXT NOT NULL, tool TEXT NOT NULL,
			args_hash TEXT NOT NULL, expires_at BIGINT NOT NULL)`}})
	if err == nil {
		err = migratePending(st)
	}
	if err == nil {
		err = st.MigrateVersions("input_states", inputStateSteps...)
	}
	return &confirmer{st: st, policy: policy, ttl: 5 * time.Minute, wait: wait, open: pendingOpen, poll: 250 * time.Millisecond}, err
}

func argsHash(toolName string, args map[string]any) string {
	b, _ := json.Marshal(args) // map keys are sorted: stable
	h := sha256.Sum256(append([]byte(toolName+"\x00"), b...))
	return hex.EncodeToString(h[:])
}

// shownHash is what a token is bound to: the arguments and the preview
// the person saw. A file the call reads that changed since then changes the
// preview, so the token no longer fits and a new question is asked.
func shownHash(toolName string, args map[string]any, what string) string {
	h := sha256.Sum256([]byte(argsHash(toolName, args) + "\x00" + what))
	return hex.EncodeToString(h[:])
}

// issue stores a new token for this call as previewed.
func (c *confirmer) issue(ctx context.Context, session, toolName string, args map[string]any, what string) (string, time.Time, error) {
	var b [16]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", time.Time{}, err
	}
	tok := "cfm_" + hex.EncodeToString(b[:])
	exp := time.Now().Add(c.ttl)
	err := c.st.Tx(ctx, func(tx *sql.Tx) error {
		if _, err := tx.Exec(`DELETE FROM confirm_tokens WHERE expires_at < $1`, time.Now().Unix()); err != nil {
			return err
		}
		_, err := tx.Exec(`INSERT INTO confirm_tokens(token, session, tool, args_hash, expires_at) VALUES ($1,$2,$3,$4,$5)`,
			tok, session, toolName, shownHash(toolName, args, what), exp.Unix())
		return err
	})
	return tok, exp, err
}

var errBadToken = errors.New("confirmation token is unknown, expired, already used, or was issued for other arguments or for content that has changed since (a file the call reads was edited)")

// spend checks and consumes a token; what is the call's preview now.
func (c *confirmer) spend(ctx context.Context, tok, session, toolName string, args map[string]any, what string) error {
	return c.st.Tx(ctx, func(tx *sql.Tx) error {
		res, err := tx.Exec(`DELETE FROM confirm_tokens WHERE token = $1 AND session = $2 AND tool = $3 AND args_hash = $4 AND expires_at >= $5`,
			tok, session, toolName, shownHash(toolName, args, what), time.Now().Unix())
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n != 1 {
			return errBadToken
		}
		return nil
	})
}

// confirm decides whether a high call may run. It returns nil to run, or a
// result to send instead (a refusal, or under the token policy a preview
// with a token). Under elicit, a client that cannot be asked, or an
// elicitation that fails, falls back to approve: never to a token the model
// could spend itself.
//
// waits says whether a call sent to approval waits for the decision: only
// the CLI's own `call`, whose person is at the terminal. An MCP client is
// answered at once, even one that sends progress tokens: headless Claude
// Code does, and shows no one the progress.
func (s *Server) confirm(ctx context.Context, traceID string, sess *session, t *tool.Tool, c *tool.Call, args map[string]any, token string, waits bool) *mcp.CallToolResult {
	policy := s.confirmer.policy
	what, err := describeCall(ctx, t, c)
	if err != nil {
		if te, ok := tool.AsError(err); ok {
			return errorResult(traceID, te)
		}
		return errorResult(traceID, tool.Errorf(tool.CodeFailed, "", "could not describe the call for confirmation: %v", err))
	}
	switch policy {
	case "auto":
		return nil
	case "deny":
		return errorResult(traceID, tool.Errorf(tool.CodeDenied, "ask the operator to change the confirm policy (config `confirm`) if this action should be allowed",
			"%s is a high-risk action and the server's confirmation policy is 'deny'", what))
	case "token":
		return s.confirmByToken(ctx, traceID, sess, t, what, args, token)
	}
	// The same call made again after it went to approval is not asked
	// anew: the person's decision there stands.
	if id, _, _ := s.confirmer.earlier(ctx, shownHash(t.Name, args, what)); id != "" {
		return s.confirmByApproval(ctx, traceID, sess, t, c, args, what, waits)
	}
	if policy == "elicit" && mcpserver.IsModernRequest(ctx) {
		return s.confirmByInput(ctx, traceID, sess, t, c, args, what, waits)
	}
	if policy == "elicit" && s.canElicit(ctx) {
		res, err := s.mcp.RequestElicitation(ctx, mcp.ElicitationRequest{Params: confirmQuestion(what)})
		if err != nil {
			s.log.Warn().Err(err).Str("session", sess.key).Msg("elicitation failed; the call waits for approval instead")
		} else if r, approval := s.answered(traceID, sess, what, res); !approval {
			return r
		}
	}
	return s.confirmByApproval(ctx, traceID, sess, t, c, args, what, waits)
}

// confirmQuestion is what the person is asked, in both eras.
func confirmQuestion(what string) mcp.ElicitationParams {
	return mcp.ElicitationParams{
		Message: "clawbridge wants to run a high-risk action:\n" + what + "\nAllow it to run once?",
		RequestedSchema: map[string]any{
			"type": "object",
			"properties": map[string]any{
				"confirm": map[string]any{"type": "boolean", "title": "Run it", "description": "Allow this action to run once"},
			},
			"required": []string{"confirm"},
		},
	}
}

// answered reads the person's answer: approval when it was no answer (the
// call goes to `clawbridge approve` instead), else nil to run or the
// refusal the model reads.
func (s *Server) answered(traceID string, sess *session, what string, res *mcp.ElicitationResult) (r *mcp.CallToolResult, approval bool) {
	switch {
	case res.Action == mcp.ElicitationResponseActionCancel:
		// A cancel is no answer: headless clients (claude -p) cancel
		// at once without asking anyone, so it is not a decline.
		s.log.Info().Str("session", sess.key).Msg("the client cancelled the question without an answer; the call waits for approval instead")
		return nil, true
	case res.Action == mcp.ElicitationResponseActionAccept:
		if m, ok := res.Content.(map[string]any); ok && m["confirm"] == true {
			return nil, false
		}
		return errorResult(traceID, tool.Errorf(tool.CodeDenied, "the user left 'Run it' unticked; do not retry unless the user asks", "the user did not confirm %s", what)), false
	case s.declinesUnasked(sess.client):
		// codex exec declines every question at once, without showing it
		// to anyone: that is not a person's no.
		s.log.Info().Str("session", sess.key).Str("client", sess.client).Msg("the client declines questions without asking; the call waits for approval instead")
		return nil, true
	}
	return errorResult(traceID, tool.Errorf(tool.CodeDenied, "the user declined; do not retry unless the user asks", "the user declined: did not confirm %s", what)), false
}

// confirmByInput is the elicit policy for a 2026-07-28 request (mrtr.go).
// A client that declared elicitation is answered with an input_required
// result carrying the question; its retry carries the answer and the
// state, which must be one this server issued to this caller for this tool
// and not spent yet (else a protocol error). The answer counts only for
// what was shown: other arguments, or a file the call reads that changed
// since, get the question anew. Accepted runs once, declined or unticked
// is refused, cancelled goes to approval like a client that cannot be
// asked.
func (s *Server) confirmByInput(ctx context.Context, traceID string, sess *session, t *tool.Tool, c *tool.Call, args map[string]any, what string, waits bool) *mcp.CallToolResult {
	rt := roundTripOf(ctx)
	hash := shownHash(t.Name, args, what)
	if state := rt.params.RequestState; state != "" {
		shown, err := s.confirmer.takeState(ctx, state, sess.caller(), t.Name)
		if err != nil {
			rt.err = err
			return errorResult(traceID, tool.Errorf(tool.CodeConfirm, "call again without requestState to be asked anew", "%v", err))
		}
		switch res := mcpserver.ElicitationResponse(rt.params.InputResponses, confirmInput); {
		case shown != hash:
			s.log.Info().Str("session", sess.key).Msg("the answer was given for other arguments or content; asking anew")
		case res == nil:
			s.log.Info().Str("session", sess.key).Msg("the retry carried no answer to the confirmation; asking anew")
		default:
			if r, approval := s.answered(traceID, sess, what, res); !approval {
				return r
			}
			return s.confirmByApproval(ctx, traceID, sess, t, c, args, what, waits)
		}
	}
	if !requestElicits(ctx) {
		return s.confirmByApproval(ctx, traceID, sess, t, c, args, what, waits)
	}
	r, err := s.askInput(ctx, sess, t.Name, what, hash)
	if err != nil {
		return errorResult(traceID, tool.Errorf(tool.CodeFailed, "", "could not store the confirmation question: %v", err))
	}
	return r
}

// confirmByApproval stores the call as pending for a person to approve or
// reject with `clawbridge approve` (approve.go). The CLI waits for the
// decision; an MCP client is answered at once with the id and the command,
// and the same call made again runs once approved. The wait happens before
// the call takes a concurrency slot and before its class timeout starts.
func (s *Server) confirmByApproval(ctx context.Context, traceID string, sess *session, t *tool.Tool, c *tool.Call, args map[string]any, what string, waits bool) *mcp.CallToolResult {
	hash := shownHash(t.Name, args, what)
	id, status, err := s.confirmer.earlier(ctx, hash)
	if err != nil {
		return errorResult(traceID, tool.Errorf(tool.CodeFailed, "", "could not read the calls waiting for approval: %v", err))
	}
	switch status {
	case pendingApproved:
		if d, err := s.confirmer.check(id); err == nil && d == decidedRun {
			s.log.Info().Str("kind", "approval").Str("pending_id", id).Msg("approved; the call made again runs once")
			return nil
		}
		id = "" // taken meanwhile by another try: ask anew
	case pendingRejected:
		_ = s.confirmer.tell(ctx, id)
		return errorResult(traceID, tool.Errorf(tool.CodeDenied, "the user rejected it; do not retry unless the user asks",
			"the user rejected %s (pending call %s)", what, id))
	}
	if id == "" {
		if id, err = s.confirmer.propose(ctx, sess.caller(), t.Name, c.Action, what, hash); err != nil {
			return errorResult(traceID, tool.Errorf(tool.CodeFailed, "", "could not store the call for approval: %v", err))
		}
	}
	wait := s.confirmer.wait
	ask := fmt.Sprintf("%s needs the user's approval: run `clawbridge approve %s` to allow it once, or `clawbridge approve --reject %s`.", what, id, id)
	// The log gets the first line only: a preview's later lines hold the
	// message text, which logs never do; `clawbridge approve` shows it all.
	first, _, _ := strings.Cut(what, "\n")
	s.log.Warn().Str("kind", "approval").Str("pending_id", id).Str("session", sess.key).Str("call", first).Msg(strings.Replace(ask, what, first, 1))
	_ = s.mcp.SendLogMessageToClient(ctx, mcp.NewLoggingMessageNotification(mcp.LoggingLevelWarning, "clawbridge", ask))
	if !waits {
		return approvalNeeded(t, id, what, s.confirmer.open)
	}
	lastTick := time.Duration(0)
	d, err := s.confirmer.await(ctx, id, func(waited time.Duration) {
		if waited-lastTick >= 2*time.Second || lastTick == 0 {
			lastTick = waited
			c.Progress(waited.Seconds(), wait.Seconds(), ask+fmt.Sprintf(" Waiting up to %s.", wait))
		}
	})
	switch {
	case d == decidedRun:
		s.log.Info().Str("kind", "approval").Str("pending_id", id).Msg("approved; running once")
		return nil
	case d == decidedReject:
		_ = s.confirmer.tell(ctx, id)
		return errorResult(traceID, tool.Errorf(tool.CodeDenied, "the user rejected it; do not retry unless the user asks",
			"the user rejected %s (pending call %s)", what, id))
	case err != nil && ctx.Err() == nil:
		return errorResult(traceID, tool.Errorf(tool.CodeFailed, "", "waiting for approval of %s failed: %v", what, err))
	}
	return errorResult(traceID, tool.Errorf(tool.CodeConfirm,
		fmt.Sprintf("tell the user to run `clawbridge approve %s` (it stays open for %s), then call again with the same arguments: it runs once", id, s.confirmer.open),
		"%s was not approved within %s and did not run (pending call %s)", what, wait, id))
}

// approvalNeeded is the answer to a call that waits for a person: what
// would run, the pending id and the command that approves it. Not an
// error: nothing failed, the model has something to tell the user.
func approvalNeeded(t *tool.Tool, id, what string, open time.Duration) *mcp.CallToolResult {
	approve := "clawbridge approve " + id
	data := map[string]any{
		"approval_required": true,
		"action":            what,
		"pending_id":        id,
		"approve_command":   approve,
		"reject_command":    "clawbridge approve --reject " + id,
		"expires_in":        open.String(),
		"how":               "Show the user what will run and the approve command. Once they have run it, call the same tool again with exactly the same arguments: it runs once.",
	}
	return mcp.NewToolResultStructured(data, fmt.Sprintf("Approval required before running %s.\nAsk the user to run `%s` (or reject it with `clawbridge approve --reject %s`); it stays open for %s. Then call %s again with the same arguments: it runs once.",
		what, approve, id, open, t.Name))
}

// confirmByToken is the token policy: the first call returns a preview and a
// token, the same call with the token runs once. The model can spend the
// token itself, so this is for trusted setups only.
func (s *Server) confirmByToken(ctx context.Context, traceID string, sess *session, t *tool.Tool, what string, args map[string]any, token string) *mcp.CallToolResult {
	if token != "" {
		if err := s.confirmer.spend(ctx, token, s.tokenOwner(sess), t.Name, args, what); err != nil {
			return errorResult(traceID, tool.Errorf(tool.CodeConfirm, "call again without confirm_token to get a fresh preview and token", "%v", err))
		}
		return nil
	}
	tok, exp, err := s.confirmer.issue(ctx, s.tokenOwner(sess), t.Name, args, what)
	if err != nil {
		return errorResult(traceID, tool.Errorf(tool.CodeFailed, "", "could not issue a confirmation token: %v", err))
	}
	preview := map[string]any{
		"confirmation_required": true,
		"action":                what,
		"confirm_token":         tok,
		"expires_at":            exp.UTC().Format(time.RFC3339),
		"how":                   "Show the user what will run. If they agree, call the same tool again with exactly the same arguments plus confirm_token.",
	}
	return mcp.NewToolResultStructured(preview, fmt.Sprintf("Confirmation required before running %s.\nIf the user agrees, call %s again with the same arguments plus \"confirm_token\": %q (valid until %s, once).",
		what, t.Name, tok, exp.UTC().Format(time.RFC3339)))
}

// describeCall is what the person confirming a call is shown: the action's
// own preview where it has one (recipients and subject of a draft), else
// the redacted arguments. It runs once per call, before anyone is asked; a
// preview that reads files leaves what it read in c.Previewed, which the
// handler then acts on, so what runs is what was shown.
func describeCall(ctx context.Context, t *tool.Tool, c *tool.Call) (string, error) {
	name := t.Name
	if c.Action != "" {
		name += "." + c.Action
	}
	if a, ok := t.Action(c.Action); ok && a.Preview != nil {
		p, err := a.Preview(ctx, c)
		if err != nil {
			return "", err
		}
		return name + ": " + p, nil
	}
	args, _ := json.Marshal(redactArgs(withholdPrivate(t, c.Args)))
	return fmt.Sprintf("%s %s", name, args), nil
}

// tokenOwner is who a confirmation token belongs to. A token is a secret the
// model holds, so anonymous callers over HTTP never share one; the stdio
// process's one client does own its tokens across requests.
func (s *Server) tokenOwner(sess *session) string {
	if sess.kind == kindAnonymous && s.stdioKey != "" {
		return s.stdioKey
	}
	return sess.key
}

// declinesUnasked reports whether the client table measured this client
// answering every question with a decline without asking anyone.
func (s *Server) declinesUnasked(client string) bool {
	c, ok := s.router.Tables().Client(client)
	return ok && c.Elicitation == "declines"
}

// canElicit reports whether the client declared the elicitation capability.
func (s *Server) canElicit(ctx context.Context) bool {
	if mcpserver.IsModernRequest(ctx) {
		return false // asked through an input_required result instead (confirmByInput)
	}
	ci := s.healed(ctx)
	return ci != nil && ci.GetClientCapabilities().Elicitation != nil
}
