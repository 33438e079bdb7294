package engine

import "strings"

// Fold writes the German letters ä, ö, ü and ß as people write them
// without them (ae, oe, ue, ss), so that "zurück" and "zurueck" are one
// word. Reading folds both the words it knows and the words it reads;
// what a player wrote is kept as written. s is in lower case.
func Fold(s string) string {
	if !strings.ContainsAny(s, "äöüßẞ") {
		return s
	}
	var b strings.Builder
	for _, r := range s {
		switch r {
		case 'ä':
			b.WriteString("ae")
		case 'ö':
			b.WriteString("oe")
		case 'ü':
			b.WriteString("ue")
		case 'ß', 'ẞ':
			b.WriteString("ss")
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}
