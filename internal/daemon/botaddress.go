package daemon

import "strings"

// botDomain is the domain of bot seats' addresses. RFC 2606 reserves
// .invalid: no mail to it can be delivered, and none can come from it
// honestly, so pbem refuses such mail (classify) and never queues mail to
// it (enqueue).
const botDomain = "bot.pbem.invalid"

// botAddress is the address of a bot seat named name: bea@bot.pbem.invalid.
func botAddress(name string) string { return name + "@" + botDomain }

// isBotAddress reports whether address is a bot seat's.
func isBotAddress(address string) bool {
	_, domain, ok := strings.Cut(address, "@")
	return ok && strings.EqualFold(domain, botDomain)
}
