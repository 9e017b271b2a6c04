package exposure

import (
	"math"
	"testing"
)

// TestSessionCost checks the model by hand: a constant list is written once
// and then read from the cache; a changed list writes everything again.
func TestSessionCost(t *testing.T) {
	p := Pricing{Read: 0.1, Write: 1.25}
	same := []CostRequest{{"a", 1000, 0}, {"a", 1000, 500}, {"a", 1000, 900}}
	// 1: (1000+2000)·1.25; 2: 3000·0.1 + 500·1.25; 3: 3500·0.1 + 400·1.25
	want := 3750 + 300 + 625 + 350 + 500.0
	if got, ch := SessionCost(same, 2000, p); math.Abs(got-want) > 1e-9 || ch != 0 {
		t.Errorf("constant list: cost %v changes %d, want %v 0", got, ch, want)
	}
	changed := []CostRequest{{"a", 1000, 0}, {"b", 400, 500}}
	want = 3750 + (400+2000+500)*1.25
	if got, ch := SessionCost(changed, 2000, p); math.Abs(got-want) > 1e-9 || ch != 1 {
		t.Errorf("changed list: cost %v changes %d, want %v 1", got, ch, want)
	}
}

// TestShrinkPays holds the break-even: under Anthropic pricing a
// change from the full list (20,122 tokens) to a median view (3,927) pays
// after 3.9 requests at system 3k and 12.5 at system 15k.
func TestShrinkPays(t *testing.T) {
	for _, c := range []struct{ system, notYet, pays int }{{3000, 4, 5}, {15000, 12, 14}} {
		if ShrinkPays(20122, 3927, c.system, 0, c.notYet, AnthropicPricing) {
			t.Errorf("system %d: pays over %d requests", c.system, c.notYet)
		}
		if !ShrinkPays(20122, 3927, c.system, 0, c.pays, AnthropicPricing) {
			t.Errorf("system %d: does not pay over %d requests", c.system, c.pays)
		}
	}
	if ShrinkPays(3927, 20122, 0, 0, 1000, AnthropicPricing) {
		t.Error("growing a list pays")
	}
}
