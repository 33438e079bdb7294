package daemon

import (
	"context"
	"fmt"
	"time"
	_ "time/tzdata" // time zones work even where the system has no tzdata

	"github.com/pbem/pbem/internal/parser"
	"github.com/pbem/pbem/internal/store"
)

// setting applies a player's setting (notify, timezone) and says what it
// did, or why not.
func (s *Service) setting(ctx context.Context, tx *store.Tx, t *turn, c parser.Command) (string, error) {
	switch c.Name {
	case "notify":
		n := store.Notify(c.Args[0])
		if err := tx.SetPlayerNotify(ctx, t.from, n); err != nil {
			return "", err
		}
		switch n {
		case store.NotifyAll:
			return "From now on you get a mail whenever something happens in your games.", nil
		case store.NotifyTurns:
			return "From now on you get a mail only when it is your turn, and at the end of a game.", nil
		default:
			return "From now on you get mail only in answer to your own mail, and at the end of a game. Send `status` to see a game.", nil
		}
	case "timezone":
		loc, err := time.LoadLocation(c.Args[0])
		if err != nil || c.Args[0] == "" || c.Args[0] == "Local" {
			return fmt.Sprintf("%q is not a time zone pbem knows. Use a name such as Europe/Berlin, America/New_York, Asia/Tokyo or UTC.", c.Args[0]), nil
		}
		if err := tx.SetPlayerTimeZone(ctx, t.from, loc.String()); err != nil {
			return "", err
		}
		return fmt.Sprintf("Your deadlines are now shown in %s (it is %s there now).", loc, s.now().In(loc).Format("Mon 2 Jan 15:04 MST")), nil
	}
	return "", fmt.Errorf("daemon: %q is not a setting", c.Name)
}

// rematch starts a new game of the same kind with the same players, the
// sender inviting the others.
func (s *Service) rematch(ctx context.Context, tx *store.Tx, t *turn, tb *table) error {
	var others []string
	for _, st := range tb.seats {
		if st.Address != t.from {
			others = append(others, st.Address)
		}
	}
	return s.newGame(ctx, tx, t, parser.Command{Lobby: true, Name: "new", Game: tb.rules.Name(), Addresses: others})
}
