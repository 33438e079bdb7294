// The sentences of internal/daemon/settle.go.

package templates

import (
	"fmt"
)

func (English) NextWaitsFor(waiting []string) string {
	return fmt.Sprintf("Next: the game waits for %s. Your next game mail shows the table.", joinAnd(waiting))
}

func (English) AutopilotMovedForYou(movedFor string, text string) string {
	return fmt.Sprintf("Your seat is on autopilot, so %s: %s.", movedFor, text)
}

func (English) OnlyMoveMadeForYou(text string) string {
	return fmt.Sprintf("pbem made your only move for you: %s. Everyone could tell you had no other choice, so nobody learns anything from it.", text)
}

func (English) MailDoesNotRender(kind string, seat int) string {
	return fmt.Sprintf("its %s mail to seat %d does not render", kind, seat)
}

func (English) BotSeated(name string, title string) string {
	return fmt.Sprintf("%s is pbem's bot, %s: it moves as soon as the game waits on it, and reads no mail.", name, title)
}

func (English) BotsSeated(names []string, titles []string) string {
	return fmt.Sprintf("%s are pbem's bots, %s: each moves as soon as the game waits on it, and reads no mail.", joinAnd(names), joinAnd(titles))
}
