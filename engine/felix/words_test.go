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
		if got := refillWords(tc.need, tc.bank); got != tc.want {
			t.Errorf("refillWords(%d, %d) = %q, want %q", tc.need, tc.bank, got, tc.want)
		}
	}
}
