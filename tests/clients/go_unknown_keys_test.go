// The Go types keep the keys the API server keeps. It runs in the zoo's generated Go
// package: copy it into api/v1 beside the types, then `go test ./api/v1/`.
//
// Issue 28: found by a new user's trial, preserve_unknown_fields on a named-struct
// field. `openWindow` keeps keys its type (Window) does not name; the Go struct dropped
// them on unmarshal, so a read-modify-write through the Go types lost them.
package v1

import (
	"encoding/json"
	"reflect"
	"testing"
)

func TestUnknownKeysUnderAFieldThatKeepsThem(t *testing.T) {
	in := []byte(`{"inspector":"insp-1","ports":[80],"reviewer":"ann",` +
		`"openWindow":{"start":"a","end":"b","zone":{"name":"Europe/Paris","dst":true}}}`)
	var spec InspectionSpec
	if err := json.Unmarshal(in, &spec); err != nil {
		t.Fatalf("the Go type refuses %s: %v", in, err)
	}
	// A deep copy holds them too (controllers copy before they write).
	copied := spec.DeepCopy()
	out, err := json.Marshal(copied)
	if err != nil {
		t.Fatal(err)
	}
	var before, after map[string]interface{}
	_ = json.Unmarshal(in, &before)
	_ = json.Unmarshal(out, &after)
	if !reflect.DeepEqual(before["openWindow"], after["openWindow"]) {
		t.Errorf("openWindow comes back as %s", out)
	}
	// The named fields stay fields.
	if spec.OpenWindow == nil || spec.OpenWindow.Start != "a" || spec.OpenWindow.End != "b" {
		t.Errorf("openWindow's fields: %+v", spec.OpenWindow)
	}
}
