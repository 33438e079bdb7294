package engine

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

var testMice = EnglishPlural("%d mouse", "%d mice")

// TestPhraseJSON: a phrase marshals to its small, stable form and reads
// back equal, nested phrases and lists included.
func TestPhraseJSON(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		p    Phrase
		want string
	}{
		{W("%s bids %d.", "bob", int16(4)), `{"k":"%s bids %d.","a":[{"s":"bob"},{"n":4}]}`},
		{W("All cards are in the row."), `{"k":"All cards are in the row."}`},
		{W("%s keeps %s.", "bob", Join(", ", W("rabbit"), "3")), `{"k":"%s keeps %s.","a":[{"s":"bob"},{"p":{"a":[{"p":{"k":"rabbit"}},{"s":"3"}],"l":", "}}]}`},
		{And("alice", "bob"), `{"a":[{"s":"alice"},{"s":"bob"}],"l":"and"}`},
		{W(testMice, 1), `{"k":"%d mice","a":[{"n":1}]}`},
	} {
		b, err := json.Marshal(c.p)
		if err != nil {
			t.Fatal(err)
		}
		if string(b) != c.want {
			t.Errorf("%s: JSON %s, want %s", c.p.English(), b, c.want)
		}
		var back Phrase
		if err := json.Unmarshal(b, &back); err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(back, c.p) {
			t.Errorf("%s reads back as %+v, want %+v", b, back, c.p)
		}
	}
}

// TestPhraseEnglish: a phrase's English is fmt's, with JoinAnd's and
// strings.Join's lists and English's plural forms.
func TestPhraseEnglish(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		p    Phrase
		want string
	}{
		{W("%s bids %d.", "bob", 4), "bob bids 4."},
		{W("%s wins the row for %d: %s.", "bob", int8(3), Join(", ", W("rabbit"), "-8", W("large dog"))), "bob wins the row for 3: rabbit, -8, large dog."},
		{And(), ""},
		{And("a"), "a"},
		{And("a", "b"), "a and b"},
		{And("a", "b", "c"), "a, b and c"},
		{Join(" and ", "a", "b", "c"), "a and b and c"},
		{Join("; ", W("%d: %s and %s", 1, W("red"), W("blue")), W("%d: %s and %s", 2, W("red"), W("red"))), "1: red and blue; 2: red and red"},
		{W("with %s", W(testMice, 1)), "with 1 mouse"},
		{W("with %s", W(testMice, -1)), "with -1 mouse"},
		{W("with %s", W(testMice, 0)), "with 0 mice"},
		{W("with %s", W(testMice, 3)), "with 3 mice"},
		{W("%s", true), "true"},
	} {
		if got := c.p.English(); got != c.want {
			t.Errorf("English = %q, want %q", got, c.want)
		}
		if got := c.p.String(); got != c.want {
			t.Errorf("String = %q, want %q", got, c.want)
		}
	}
	if JoinAnd([]string{"a", "b", "c"}) != And("a", "b", "c").English() {
		t.Error("And writes what JoinAnd writes")
	}
}

// TestPhraseIn: a phrase is written with the say it is given, each
// nested phrase and list separator through it.
func TestPhraseIn(t *testing.T) {
	t.Parallel()
	de := map[string]string{
		"%s keeps %s.": "%s behält: %s.", "rabbit": "Hase", "%s and %s": "%s und %s",
		", ": ", ", " and ": " und ", "%d mice": "%d Mäuse",
	}
	say := func(key string, args ...any) string {
		if f, ok := de[key]; ok {
			key = f
		}
		return English(key, args...)
	}
	for _, c := range []struct {
		p    Phrase
		want string
	}{
		{W("%s keeps %s.", "bob", And(W("rabbit"), "3", W("%d mice", 2))), "bob behält: Hase, 3 und 2 Mäuse."},
		{Join(" and ", "a", "b", "c"), "a und b und c"},
	} {
		if got := c.p.In(say); got != c.want {
			t.Errorf("In = %q, want %q", got, c.want)
		}
	}
}

func TestRecorderKeepsPhrases(t *testing.T) {
	t.Parallel()
	r := &Recorder{Names: []string{"alice", "bob"}}
	r.Public("win", "%s wins the row for %d: %s.", "bob", int16(3), Join(", ", W("rabbit"), "3"))
	r.Add(1, "note", W("%s has %s.", "bob", W(testMice, 1)))
	want := []Event{
		{To: Public, Kind: "win", Text: "bob wins the row for 3: rabbit, 3."},
		{To: 1, Kind: "note", Text: "bob has 1 mouse."},
	}
	if len(r.Events) != len(want) {
		t.Fatalf("events %+v", r.Events)
	}
	for i, e := range r.Events {
		if e.To != want[i].To || e.Kind != want[i].Kind || e.Text != want[i].Text || e.Say == nil || e.Say.English() != e.Text {
			t.Errorf("event %d: %+v, want %+v with its phrase", i, e, want[i])
		}
	}
	var nilRec *Recorder
	nilRec.Add(0, "k", W("x")) // playouts record nothing and must not panic
}

// TestYous: a phrase that names its reader reads in its you-form for
// him, without the argument that names him, and as it is for everyone
// else.
func TestYous(t *testing.T) {
	t.Parallel()
	yous := Yous{
		"%s bids %d.": {{Key: "You bid %d.", Names: []int{0}}},
		"%s gives %s to %s.": {
			{Key: "You give %s to %s.", Names: []int{0}},
			{Key: "%s gives %s to you.", Names: []int{2}},
		},
		"%s is %s; %s wins.": {{Key: "You are %s; you win.", Names: []int{0, 2}}},
	}
	for _, c := range []struct {
		p      Phrase
		reader string
		want   string
		ok     bool
	}{
		{W("%s bids %d.", "bob", 2), "bob", "You bid 2.", true},
		{W("%s bids %d.", "bob", 2), "bo", "bob bids 2.", false},
		{W("%s bids %d.", "bob", 2), "", "bob bids 2.", false},
		{W("%s gives %s to %s.", "bob", W("red"), "carol"), "bob", "You give red to carol.", true},
		{W("%s gives %s to %s.", "bob", W("red"), "carol"), "carol", "bob gives red to you.", true},
		{W("%s gives %s to %s.", "bob", W("red"), "carol"), "alice", "bob gives red to carol.", false},
		{W("%s is %s; %s wins.", "bob", "first", "bob"), "bob", "You are first; you win.", true},
		{W("%s passes.", "bob"), "bob", "bob passes.", false},
	} {
		got, ok := yous.Address(&c.p, c.reader)
		if ok != c.ok || got.English() != c.want {
			t.Errorf("%q for %q: %q, %v, want %q, %v", c.p.English(), c.reader, got.English(), ok, c.want, c.ok)
		}
		if !ok && got != &c.p {
			t.Errorf("%q for %q: a phrase not about its reader is not copied", c.p.English(), c.reader)
		}
	}
	if got, ok := yous.Address(nil, "bob"); got != nil || ok {
		t.Error("no phrase stays none")
	}
	p := W("%s share the win.", Join(" and ", "alice", "bob", "carol"))
	if rest, ok := p.LeadingName(0, "alice"); !ok || rest.English() != "bob and carol" {
		t.Errorf("LeadingName: %q, %v", rest.English(), ok)
	}
	if _, ok := p.LeadingName(0, "bob"); ok {
		t.Error("LeadingName: bob does not lead the list")
	}
}

func TestEnglishPluralOnce(t *testing.T) {
	t.Parallel()
	if EnglishPlural("%d mouse", "%d mice") != "%d mice" {
		t.Error("EnglishPlural returns the key")
	}
	defer func() {
		if r := recover(); r == nil || !strings.Contains(r.(string), "%d mice") {
			t.Errorf("a second one-form: %v", r)
		}
	}()
	EnglishPlural("%d mouses", "%d mice")
}
