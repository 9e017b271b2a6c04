package tool

import "context"

// SampleRequest asks a language model for one completion: the client's own
// model through MCP sampling, when the server can reach it.
type SampleRequest struct {
	System   string
	Messages []SampleMessage
	// MaxTokens bounds the answer.
	MaxTokens   int
	Temperature float64 // 0: the model's default
	// ModelHints name preferred models (substrings, first match wins);
	// the priorities are 0..1, 0 meaning "no preference".
	ModelHints                                        []string
	CostPriority, SpeedPriority, IntelligencePriority float64
}

// SampleMessage is one turn; Role is "user" or "assistant".
type SampleMessage struct {
	Role string
	Text string
}

// SampleResult is the model's answer.
type SampleResult struct {
	Text       string
	Model      string
	StopReason string
}

// Sampler asks the client's model; the server sets Call.Sample to one when
// the client declared the sampling capability.
type Sampler func(ctx context.Context, req SampleRequest) (*SampleResult, error)
