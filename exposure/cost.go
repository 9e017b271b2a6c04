package exposure

// The cost model of a session's tool lists under prompt caching.
//
// A session is a sequence of model requests. Request i carries the tool
// list the client holds (L_i tokens), the system prompt (S) and the
// history so far (H_i: every earlier request's user text, tool call and
// result). Hosts cache the prompt prefix in the order tools, system,
// messages, so:
//   - when the list is byte-identical to the previous request's, that
//     request's whole prompt (L_i + S + H_{i-1}) is a cached prefix, read
//     at the read price, and only the new part (H_i - H_{i-1}) is written;
//   - when the list changed (and on the first request), everything
//     (L_i + S + H_i) is written again.
//
// Prices are relative to the base input price 1. Output tokens are not
// counted: they are the same in every mode. A list change reaches the
// model on the request after the change when the client re-reads the list
// at once (relist 0); Gemini CLI re-reads in the background and is one
// request later (relist 1).

// Pricing is a host's cache pricing relative to the base input price.
type Pricing struct {
	Name  string
	Read  float64 // a cached prefix token
	Write float64 // an uncached token (written to the cache)
}

// Hosts' cache prices: Anthropic reads a cached token at 0.1 and writes one
// at 1.25 of the base price; OpenAI-style caching reads at 0.5 and has no
// write premium.
var (
	AnthropicPricing = Pricing{Name: "anthropic", Read: 0.1, Write: 1.25}
	OpenAIPricing    = Pricing{Name: "openai", Read: 0.5, Write: 1.0}
)

// CostRequest is one model request of a session: the identity of the list
// it carries (equal keys mean byte-identical lists), the list's tokens and
// the history's tokens at that request.
type CostRequest struct {
	ListKey string
	List    int
	History int
}

// SessionCost is the cost of a session's requests at system prompt size
// system, and how many times the list changed between requests.
func SessionCost(reqs []CostRequest, system int, p Pricing) (cost float64, changes int) {
	for i, r := range reqs {
		whole := float64(r.List + system + r.History)
		if i == 0 || r.ListKey != reqs[i-1].ListKey {
			if i > 0 {
				changes++
			}
			cost += whole * p.Write
			continue
		}
		prev := reqs[i-1]
		cached := float64(prev.List + system + prev.History)
		cost += cached*p.Read + (whole-cached)*p.Write
	}
	return cost, changes
}

// ShrinkPays reports whether replacing a list of from tokens by one of to
// tokens (to < from) costs less over the remaining requests than keeping
// it, at system prompt system and history history. Keeping it, each
// request reads the list from the cache; changing it, the next request
// writes the new list, the system prompt and the history again, and every
// later one reads the smaller list:
//
//	change - keep = (to+S+H)·write - (from+S+H)·read - (from-to)·read·(remaining-1)
func ShrinkPays(from, to, system, history, remaining int, p Pricing) bool {
	if to >= from || remaining <= 0 {
		return false
	}
	rewrite := float64(to+system+history)*p.Write - float64(from+system+history)*p.Read
	saving := float64(from-to) * p.Read * float64(remaining-1)
	return saving > rewrite
}
