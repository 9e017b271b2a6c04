package sendonce

import (
	"context"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/clawbridge/clawbridge/internal/store/storetest"
)

// TestSendOnce_ClaimLifecycle: a new key is fresh once; a sent key is never
// fresh again; a failed or partial key is fresh again, keeping the parts
// that went — on both engines, the second handle seeing the first's record.
func TestSendOnce_ClaimLifecycle(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *storetest.DB) {
		ctx := context.Background()
		a, err := Open(db.Open(t))
		if err != nil {
			t.Fatal(err)
		}
		b, err := Open(db.Open(t))
		if err != nil {
			t.Fatal(err)
		}
		k := Key("email", "k1")
		if _, fresh, err := a.Claim(ctx, k); err != nil || !fresh {
			t.Fatalf("first claim: fresh=%v %v", fresh, err)
		}
		if rec, fresh, err := b.Claim(ctx, k); err != nil || fresh || rec.State != Sending {
			t.Fatalf("claim while sending: %+v fresh=%v %v", rec, fresh, err)
		}
		if err := a.Finish(ctx, k, Partial, "2 of 3 sent", 2); err != nil {
			t.Fatal(err)
		}
		rec, fresh, err := b.Claim(ctx, k)
		if err != nil || !fresh || rec.State != Partial || rec.Parts != 2 {
			t.Fatalf("claim after partial: %+v fresh=%v %v", rec, fresh, err)
		}
		if err := b.Finish(ctx, k, Sent, "ok", 3); err != nil {
			t.Fatal(err)
		}
		rec, fresh, err = a.Claim(ctx, k)
		if err != nil || fresh || rec.State != Sent || rec.Answer != "ok" || rec.Parts != 3 {
			t.Fatalf("claim after sent: %+v fresh=%v %v", rec, fresh, err)
		}
	})
}

// TestSendOnce_RaceAcrossInstances: 20 claims of one new key, and then of
// the same key after a failure, from two handles at once: exactly one is
// fresh each time, and none fails.
func TestSendOnce_RaceAcrossInstances(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *storetest.DB) {
		ctx := context.Background()
		var stores [2]*Store
		for i := range stores {
			s, err := Open(db.Open(t))
			if err != nil {
				t.Fatal(err)
			}
			stores[i] = s
		}
		k := Key("notify", Derive("hello", "#ops"))
		race := func() int32 {
			var fresh atomic.Int32
			var wg sync.WaitGroup
			for i := range 20 {
				wg.Go(func() {
					_, f, err := stores[i%2].Claim(ctx, k)
					if err != nil {
						t.Error(err)
					}
					if f {
						fresh.Add(1)
					}
				})
			}
			wg.Wait()
			return fresh.Load()
		}
		if n := race(); n != 1 {
			t.Fatalf("new key: %d fresh claims, want 1", n)
		}
		if err := stores[0].Finish(ctx, k, Failed, "smtp down", 0); err != nil {
			t.Fatal(err)
		}
		if n := race(); n != 1 {
			t.Fatalf("after a failure: %d fresh claims, want 1", n)
		}
	})
}
