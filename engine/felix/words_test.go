package felix

import "testing"

func TestRefillWords(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		need, bank int
		want       string
	}{
		{1, 1, "The bank refills the mouse cards with 1 mouse; 1 remains in the bank."},
		{2, 0, "The bank refills the mouse cards with 2 mice; 0 remain in the bank."},
		{6, 14, "The bank refills the mouse cards with 6 mice; 14 remain in the bank."},
	} {
		if got := refillWords(tc.need, tc.bank).English(); got != tc.want {
			t.Errorf("refillWords(%d, %d) = %q, want %q", tc.need, tc.bank, got, tc.want)
		}
	}
}

// TestMouseCardsWords: the mouse cards are listed by value once, with
// only what differs from the printed card ("2-card 2 mice" said each
// number twice).
func TestMouseCardsWords(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		cards []MouseCard
		want  string
	}{
		{[]MouseCard{{2, 2, true}, {4, 4, true}, {6, 6, true}}, "2, 4 and 6"},
		{[]MouseCard{{3, 3, false}, {6, 0, true}}, "3 (taken) and 6 (empty)"},
		{[]MouseCard{{2, 1, true}, {4, 4, true}}, "2 (1 mouse) and 4"},
		{[]MouseCard{{6, 6, true}}, "6"},
		{[]MouseCard{{2, 0, true}, {4, 0, true}, {6, 0, true}}, "2, 4 and 6, all empty"},
		{[]MouseCard{{2, 2, false}, {4, 4, false}}, "2 and 4, all taken"},
		{[]MouseCard{{2, 0, false}, {4, 0, true}}, "2 (taken) and 4 (empty)"},
	} {
		if got := mouseCardsIn(catalogSay(t, "en"), tc.cards); got != tc.want {
			t.Errorf("mouseCardsIn(%v) = %q, want %q", tc.cards, got, tc.want)
		}
	}
}
