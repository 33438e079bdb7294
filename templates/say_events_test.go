package templates

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/pbem/pbem/engine"
)

// TestEventPhrasesAreTheirSentences checks each phrase of Phrases
// against the Words method of its name: in English it is that method's
// sentence byte for byte, and so it is in German, where it leaves no
// English word behind.
func TestEventPhrasesAreTheirSentences(t *testing.T) {
	seen := engine.Join(" ", "bob bids 4.", "bob passes.")
	seenText := "bob bids 4. bob passes."
	names := []string{"alice", "bob", "carol"}
	berlin, err := time.LoadLocation("Europe/Berlin")
	if err != nil {
		t.Fatal(err)
	}
	until := time.Date(2026, 12, 1, 19, 36, 0, 0, berlin)
	for _, lang := range []string{"en", "de"} {
		w := For(lang)
		cases := []struct {
			name string
			p    engine.Phrase
			want string
		}{
			{"BotPlayedFor", Phrases.BotPlayedFor("bob"), w.BotPlayedFor("bob")},
			{"DefaultMoveMadeFor", Phrases.DefaultMoveMadeFor("bob"), w.DefaultMoveMadeFor("bob")},
			{"BotPlayedForYou", Phrases.BotPlayedForYou(), w.BotPlayedForYou()},
			{"DefaultMoveMadeForYou", Phrases.DefaultMoveMadeForYou(), w.DefaultMoveMadeForYou()},
			{"BotPlaysFor", Phrases.BotPlaysFor("bob"), w.BotPlaysFor("bob")},
			{"DefaultMovesPlayFor", Phrases.DefaultMovesPlayFor("bob"), w.DefaultMovesPlayFor("bob")},
			{"BotPlaysForYou", Phrases.BotPlaysForYou(), w.BotPlaysForYou()},
			{"DefaultMovesPlayForYou", Phrases.DefaultMovesPlayForYou(), w.DefaultMovesPlayForYou()},
			{"DeadlinePassed", Phrases.DeadlinePassed("bob", Phrases.BotPlayedFor("bob")), w.DeadlinePassed("bob", w.BotPlayedFor("bob"))},
			{"YourDeadlinePassed", Phrases.YourDeadlinePassed(Phrases.DefaultMoveMadeForYou(), "pass"), w.YourDeadlinePassed(w.DefaultMoveMadeForYou(), "pass")},
			{"PlayerOnAutopilot", Phrases.PlayerOnAutopilot("bob", 3, Phrases.BotPlaysFor("bob")), w.PlayerOnAutopilot("bob", 3, w.BotPlaysFor("bob"))},
			{"YouAreOnAutopilot", Phrases.YouAreOnAutopilot(2, Phrases.DefaultMovesPlayForYou()), w.YouAreOnAutopilot(2, w.DefaultMovesPlayForYou())},
			{"PlayerClockRanOut", Phrases.PlayerClockRanOut("bob", Phrases.BotPlaysFor("bob")), w.PlayerClockRanOut("bob", w.BotPlaysFor("bob"))},
			{"YourClockRanOut", Phrases.YourClockRanOut(Phrases.BotPlaysForYou()), w.YourClockRanOut(w.BotPlaysForYou())},
			{"AutopilotMovedForYou", Phrases.AutopilotMovedForYou(Phrases.BotPlayedForYou(), "bid 4"), w.AutopilotMovedForYou(w.BotPlayedForYou(), "bid 4")},
			{"OnlyMoveMadeForYou", Phrases.OnlyMoveMadeForYou("pass"), w.OnlyMoveMadeForYou("pass")},
			{"AdminMovedForYou", Phrases.AdminMovedForYou("pass"), w.AdminMovedForYou("pass")},
			{"UndoAsked", Phrases.UndoAsked("bob", seen, names), w.UndoAsked("bob", seenText, names)},
			{"UndoAsked one", Phrases.UndoAsked("bob", seenText, names[:1]), w.UndoAsked("bob", seenText, names[:1])},
			{"YourCommandTakenBack", Phrases.YourCommandTakenBack("bid 4"), w.YourCommandTakenBack("bid 4")},
			{"MoveTakenBack", Phrases.MoveTakenBack("bob", Phrases.AsEveryoneAgreed(), seen), w.MoveTakenBack("bob", w.AsEveryoneAgreed(), seenText)},
			{"MoveTakenBack admin", Phrases.MoveTakenBack("bob", Phrases.ByAdmin(), seenText), w.MoveTakenBack("bob", w.ByAdmin(), seenText)},
			{"UndoWithdrawn", Phrases.UndoWithdrawn("bob"), w.UndoWithdrawn("bob")},
			{"UndoRefused", Phrases.UndoRefused("alice", "bob"), w.UndoRefused("alice", "bob")},
			{"UndoNotPossible", Phrases.UndoNotPossible("bob", engine.ErrMovedOn), w.UndoNotPossible("bob", engine.ErrMovedOn)},
			{"UndoLapsedByMove", Phrases.UndoLapsedByMove("alice", "bob"), w.UndoLapsedByMove("alice", "bob")},
			{"UndoLapsedByTime", Phrases.UndoLapsedByTime("bob"), w.UndoLapsedByTime("bob")},
			{"UndoLapsedUnanswered", Phrases.UndoLapsedUnanswered("bob", names[:2]), w.UndoLapsedUnanswered("bob", names[:2])},
			{"Says", Phrases.Says("bob", "hello there"), w.Says("bob", "hello there")},
			{"PokedYou", Phrases.PokedYou("bob"), w.PokedYou("bob")},
			{"NowCalled", Phrases.NowCalled("bob", "robert"), w.NowCalled("bob", "robert")},
			{"EveryoneJoined", Phrases.EveryoneJoined(), w.EveryoneJoined()},
			{"PlayerResigned", Phrases.PlayerResigned("bob", Phrases.DefaultMovesPlayFor("bob")), w.PlayerResigned("bob", w.DefaultMovesPlayFor("bob"))},
			{"PlayerBackFromAutopilot", Phrases.PlayerBackFromAutopilot("bob"), w.PlayerBackFromAutopilot("bob")},
			{"PlayerMailBounces", Phrases.PlayerMailBounces("bob", Phrases.BotPlaysFor("bob")), w.PlayerMailBounces("bob", w.BotPlaysFor("bob"))},
			{"PlayerAway", Phrases.PlayerAway("bob", until), w.PlayerAway("bob", w.Date(until, w.ClockLayout()))},
			{"PlayerAway UTC", Phrases.PlayerAway("bob", until.UTC()), w.PlayerAway("bob", w.Date(until.UTC(), w.ClockLayout()))},
			{"PlayerBackFromVacation", Phrases.PlayerBackFromVacation("bob"), w.PlayerBackFromVacation("bob")},
			{"DeadlineExtended", Phrases.AdminDid(Phrases.DeadlineExtended("bob", 2*time.Hour)), w.AdminDid(w.DeadlineExtended("bob", 2*time.Hour))},
			{"Duration 1h30m", Phrases.Duration(90 * time.Minute), w.Duration(90 * time.Minute)},
			{"Duration 1h", Phrases.Duration(time.Hour), w.Duration(time.Hour)},
			{"Duration 1 day 1 hour 1 minute 1 second", Phrases.Duration(25*time.Hour + time.Minute + time.Second), w.Duration(25*time.Hour + time.Minute + time.Second)},
			{"Duration 3 days", Phrases.Duration(72 * time.Hour), w.Duration(72 * time.Hour)},
			{"Duration 48 hours", Phrases.Duration(48 * time.Hour), w.Duration(48 * time.Hour)},
			{"Duration 0", Phrases.Duration(0), w.Duration(0)},
			{"Duration negative", Phrases.Duration(-time.Minute), w.Duration(-time.Minute)},
			{"RepairedGameGoesOn", Phrases.AdminDid(Phrases.RepairedGameGoesOn()), w.AdminDid(w.RepairedGameGoesOn())},
			{"MadeMoveFor", Phrases.AdminDid(Phrases.MadeMoveFor("bob")), w.AdminDid(w.MadeMoveFor("bob"))},
			{"BotSeatNowPlayedByPerson", Phrases.AdminDid(Phrases.BotSeatNowPlayedByPerson("bob")), w.AdminDid(w.BotSeatNowPlayedByPerson("bob"))},
			{"SeatMovedToNewAddress", Phrases.AdminDid(Phrases.SeatMovedToNewAddress("bob")), w.AdminDid(w.SeatMovedToNewAddress("bob"))},
			{"UnratedGame", Phrases.AdminDid(Phrases.UnratedGame()), w.AdminDid(w.UnratedGame())},
			{"PausedGame", Phrases.AdminDid(Phrases.PausedGame()), w.AdminDid(w.PausedGame())},
			{"ResumedGame", Phrases.AdminDid(Phrases.ResumedGame()), w.AdminDid(w.ResumedGame())},
			{"AbortedGame", Phrases.AdminDid(Phrases.AbortedGame()), w.AdminDid(w.AbortedGame())},
		}
		for _, c := range cases {
			// The phrase as the store keeps it, read back.
			raw, err := json.Marshal(c.p)
			if err != nil {
				t.Fatal(err)
			}
			var p engine.Phrase
			if err := json.Unmarshal(raw, &p); err != nil {
				t.Fatal(err)
			}
			ev := engine.Event{Text: Say.Event(engine.Event{Text: c.want}), Say: &p}
			got := c.p.In(w.sayTimes)
			if lang == "en" {
				if got != c.want {
					t.Errorf("%s in English:\n got %q\nwant %q", c.name, got, c.want)
				}
				if eng := c.p.English(); eng != c.want {
					t.Errorf("%s: English() %q, want %q", c.name, eng, c.want)
				}
				continue
			}
			if got := w.Event(ev); got != c.want {
				t.Errorf("%s in German:\n got %q\nwant %q", c.name, got, c.want)
			}
		}
	}
}
