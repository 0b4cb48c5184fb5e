// The package's Quantity reads every value the API server admits in bounded time, and
// writes it back as read. It runs in the zoo's generated Go package: copy it into api/v1
// beside the types, then `go test ./api/v1/` (scripts/oracle.sh does).
//
// Issue 28: found by the differential objects tier's long variant (seed 11, 9,401 cases):
// `1e-1341260844` matches the CRD's quantity pattern, and resource.ParseQuantity rounds it
// through 10^1341260844 — the Go client never returned.
package v1

import (
	"encoding/json"
	"testing"
	"time"
)

func TestQuantityWithAHugeExponentIsKeptAsRead(t *testing.T) {
	for _, in := range []string{`"1e-1341260844"`, `"+4e999999999"`, `"7E0000001000"`, `"1e1341260844.5"`} {
		done := make(chan error, 1)
		var q Quantity
		go func() { done <- json.Unmarshal([]byte(in), &q) }()
		select {
		case err := <-done:
			if err != nil {
				t.Fatalf("%s, which the API server admits, is refused: %v", in, err)
			}
		case <-time.After(5 * time.Second):
			t.Fatalf("reading %s did not return in 5 s", in)
		}
		out, err := json.Marshal(q)
		if err != nil || string(out) != in {
			t.Fatalf("%s comes back as %s (%v)", in, out, err)
		}
		if !q.IsZero() {
			t.Fatalf("%s: a value out of resource.Quantity's reach reads as zero, not %s", in, q.String())
		}
	}
	// Within reach, a large exponent is read and written back as read.
	var q Quantity
	if err := json.Unmarshal([]byte(`"1e999"`), &q); err != nil || q.IsZero() {
		t.Fatalf("1e999: %v %s", err, q.String())
	}
	if out, _ := json.Marshal(q); string(out) != `"1e999"` {
		t.Fatalf("1e999 comes back as %s", out)
	}
	if _, err := ParseQuantity("1e-1341260844"); err == nil {
		t.Fatal("ParseQuantity takes an exponent out of reach")
	}
	// Not a quantity at all: refused as before.
	if err := json.Unmarshal([]byte(`"12 apples"`), &q); err == nil {
		t.Fatal(`"12 apples" is read as a quantity`)
	}
}
