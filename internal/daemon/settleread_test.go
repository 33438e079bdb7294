package daemon

import (
	"slices"
	"testing"

	"github.com/pbem/pbem/store"
)

// TestEventsSince checks that the part of one read of the events that a
// seat is given is what the store's read since its last mail returns.
func TestEventsSince(t *testing.T) {
	t.Parallel()
	evs := []store.Event{{ID: 3}, {ID: 5}, {ID: 9}}
	for _, c := range []struct {
		last int64
		want []int64
	}{
		{0, []int64{3, 5, 9}},
		{3, []int64{5, 9}},
		{4, []int64{5, 9}},
		{8, []int64{9}},
		{9, nil},
		{12, nil},
	} {
		got := eventsSince(evs, c.last)
		var ids []int64
		for _, e := range got {
			ids = append(ids, e.ID)
		}
		if !slices.Equal(ids, c.want) || (c.want == nil && got != nil) {
			t.Errorf("eventsSince(%d) = %v, want %v", c.last, ids, c.want)
		}
	}
	if eventsSince(nil, 0) != nil {
		t.Error("eventsSince of no events is not nil")
	}
}
