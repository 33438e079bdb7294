package engine

import "testing"

func TestJoinAnd(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		in   []string
		want string
	}{
		{nil, ""},
		{[]string{"a"}, "a"},
		{[]string{"a", "b"}, "a and b"},
		{[]string{"a", "b", "c"}, "a, b and c"},
	} {
		if got := JoinAnd(tc.in); got != tc.want {
			t.Errorf("JoinAnd(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}
