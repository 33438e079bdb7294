package playclock

import "time"

// guessZones are the zones GuessZone suggests, most people first, so
// that an offset several zones share suggests the most likely one.
var guessZones = []string{
	"America/New_York", "America/Chicago", "America/Denver", "America/Phoenix", "America/Los_Angeles",
	"America/Anchorage", "Pacific/Honolulu", "America/Halifax", "America/St_Johns", "America/Sao_Paulo",
	"America/Mexico_City", "America/Bogota", "America/Argentina/Buenos_Aires", "America/Noronha",
	"Europe/London", "Atlantic/Reykjavik", "Atlantic/Cape_Verde", "Atlantic/Azores", "Europe/Berlin",
	"Africa/Lagos", "Europe/Helsinki", "Africa/Johannesburg", "Europe/Moscow", "Africa/Nairobi",
	"Asia/Tehran", "Asia/Dubai", "Asia/Kabul", "Asia/Karachi", "Asia/Kolkata", "Asia/Kathmandu",
	"Asia/Dhaka", "Asia/Yangon", "Asia/Bangkok", "Asia/Shanghai", "Australia/Perth", "Asia/Tokyo",
	"Australia/Darwin", "Australia/Brisbane", "Australia/Adelaide", "Australia/Sydney",
	"Australia/Lord_Howe", "Pacific/Noumea", "Pacific/Auckland", "Pacific/Chatham", "Pacific/Tongatapu",
	"Pacific/Kiritimati", "Pacific/Pago_Pago",
}

// GuessZone is a time zone whose offset from UTC at date is date's own:
// what the Date field of a player's mail suggests his zone is. Many zones
// share an offset, so it is only a suggestion; "" when none of the zones
// it knows has that offset then.
func GuessZone(date time.Time) string {
	_, off := date.Zone()
	for _, name := range guessZones {
		loc, err := time.LoadLocation(name)
		if err != nil {
			continue
		}
		if _, o := date.In(loc).Zone(); o == off {
			return name
		}
	}
	return ""
}
