package loaded

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/pbem/pbem/engine"
	"github.com/pbem/pbem/store"
)

// Rename renames seat's player from old to name in the game's set-up,
// in the command lines that name him, and in the saved state, all
// rebuilt from the renamed set-up and log so that they agree. The seat's
// own row, the audit and the table's news are the caller's.
func (g *Game) Rename(ctx context.Context, tx *store.Tx, old, name string) error {
	gameID := g.Row.ID
	var setup engine.Setup
	if err := json.Unmarshal(g.Row.Setup, &setup); err != nil {
		return fmt.Errorf("daemon: game %d: set-up: %w", gameID, err)
	}
	setup = RenameInSetup(setup, old, name)
	l, _, err := engine.NewLog(g.Rules, setup)
	if err != nil {
		return fmt.Errorf("daemon: game %d: renamed set-up: %w", gameID, err)
	}
	moves, err := tx.Moves(ctx, gameID, 0)
	if err != nil {
		return err
	}
	specs := g.Rules.Specs()
	for _, m := range moves {
		if m.Command == engine.UndoCommand {
			// It names nobody: the rename leaves it as it is.
			if _, err := l.Undo(m.Seat); err != nil {
				// Not the reason: it may quote what only that seat saw.
				return fmt.Errorf("daemon: game %d: undo %d does not replay after the rename", gameID, m.Seq)
			}
			continue
		}
		c, err := engine.ParseCommand(specs, g.Names, m.Command)
		if err != nil {
			return fmt.Errorf("daemon: game %d: move %d does not read: %w", gameID, m.Seq, err)
		}
		c = RenameInCommand(specs, c, old, name)
		if _, err := l.Apply(m.Seat, c); err != nil {
			return fmt.Errorf("daemon: game %d: move %d does not replay after the rename: %w", gameID, m.Seq, err)
		}
		if c.Text != m.Command {
			if err := tx.SetMoveCommand(ctx, gameID, m.Seq, c.Text); err != nil {
				return err
			}
		}
	}
	state := l.Game()
	raw, err := json.Marshal(state.Setup())
	if err != nil {
		return fmt.Errorf("daemon: game %d: save set-up: %w", gameID, err)
	}
	if err := tx.SetGameSetup(ctx, gameID, raw); err != nil {
		return err
	}
	return SaveSnapshot(ctx, tx, gameID, g.Row.LastSeq, state)
}

// RenameInSetup renames a player in a set-up: the seat order, the start
// player, and the set-up lines' arguments that are the name or name=VALUE
// ("removed alice=-8 bob=rabbit"). A name is never a card or a colour
// (the daemon's commandWord), so no other argument is taken for it.
func RenameInSetup(su engine.Setup, old, name string) engine.Setup {
	su.Players = append([]string(nil), su.Players...)
	for i, p := range su.Players {
		if p == old {
			su.Players[i] = name
		}
	}
	if su.Start == old {
		su.Start = name
	}
	lines := make([]engine.SetupLine, len(su.Lines))
	for i, l := range su.Lines {
		args := make([]string, len(l.Args))
		for j, a := range l.Args {
			switch {
			case a == old:
				a = name
			case strings.HasPrefix(a, old+"="):
				a = name + a[len(old):]
			}
			args[j] = a
		}
		lines[i] = engine.SetupLine{Key: l.Key, Args: args}
	}
	su.Lines = lines
	return su
}

// RenameInCommand renames a player in a command's player arguments.
func RenameInCommand(specs []engine.Spec, c engine.Command, old, name string) engine.Command {
	spec, ok := engine.FindSpec(specs, c.Name)
	if !ok {
		return c
	}
	args := append([]string(nil), c.Args...)
	i := 0
	for _, w := range spec.Words {
		if w.Kind == engine.Literal {
			continue
		}
		if w.Kind == engine.Player && i < len(args) && args[i] == old {
			args[i] = name
		}
		i++
	}
	return spec.Make(args...)
}
