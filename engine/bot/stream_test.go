package bot

import (
	"slices"
	"testing"
)

func TestNumbers(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		text string
		want []string
	}{
		{"bob bids 5.", []string{"5"}},
		{"alice puts a card face down into the row (position 3).", []string{"3"}},
		{"carol2 wins -8, 15 and the rabbit for 4 mice.", []string{"-8", "15", "4"}},
		{"a-b takes x-1", nil},
		{"", nil},
	} {
		if got := numbers(tc.text); !slices.Equal(got, tc.want) {
			t.Errorf("numbers(%q) = %q, want %q", tc.text, got, tc.want)
		}
	}
}
