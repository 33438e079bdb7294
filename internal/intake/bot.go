package intake

import "strings"

// BotDomain is the domain of bot seats' addresses. RFC 2606 reserves
// .invalid: no mail to it can be delivered, and none can come from it
// honestly, so pbem refuses such mail (classify) and never queues mail
// to it.
const BotDomain = "bot.pbem.invalid"

// BotAddress is the address of a bot seat named name: bea@bot.pbem.invalid.
func BotAddress(name string) string { return name + "@" + BotDomain }

// IsBotAddress reports whether address is a bot seat's.
func IsBotAddress(address string) bool {
	_, domain, ok := strings.Cut(address, "@")
	return ok && strings.EqualFold(domain, BotDomain)
}
