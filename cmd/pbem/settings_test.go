package main

import "testing"

func TestPlayerSettings(t *testing.T) {
	for _, tt := range []struct {
		notify, confirm, want string
		ok                    bool
	}{
		{"", "", "", true},
		{"turns", "", "notify turns", true},
		{"", "off", "confirm off", true},
		{"normal", "off", "notify normal\nconfirm off", true},
		{"digest", "", "", false},
		{"sometimes", "", "", false},
		{"", "maybe", "", false},
	} {
		got, err := playerSettings(tt.notify, tt.confirm)
		if (err == nil) != tt.ok || got != tt.want {
			t.Errorf("playerSettings(%q, %q) = %q, %v; want %q, ok %v", tt.notify, tt.confirm, got, err, tt.want, tt.ok)
		}
	}
}
