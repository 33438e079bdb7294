// The sentences of internal/daemon/settle.go.

package templates

func (e Words) NextWaitsFor(waiting []string) string {
	return e.f("Next: the game waits for %s. Your next game mail shows the table.", e.joinAnd(waiting))
}

func (e Words) AutopilotMovedForYou(movedFor string, text string) string {
	return e.f("Your seat is on autopilot, so %s: %s.", movedFor, text)
}

func (e Words) OnlyMoveMadeForYou(text string) string {
	return e.f("pbem made your only move for you: %s. Everyone could tell you had no other choice, so nobody learns anything from it.", text)
}

func (e Words) MailDoesNotRender(kind string, seat int) string {
	return e.f("its %s mail to seat %d does not render", kind, seat)
}

func (e Words) BotSeated(name string, title string) string {
	return e.f("%s is pbem's bot, %s: it moves as soon as the game waits on it, and reads no mail.", name, title)
}

func (e Words) BotsSeated(names []string, titles []string) string {
	return e.f("%s are pbem's bots, %s: each moves as soon as the game waits on it, and reads no mail.", e.joinAnd(names), e.joinAnd(titles))
}
