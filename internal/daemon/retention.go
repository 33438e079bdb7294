package daemon

import "github.com/pbem/pbem/internal/outgoing"

// limitWindow is the longest window of any limit (internal/outgoing's
// and limits.go's): a row of the budget table older than it counts
// towards no limit any more, and the sweeper's retention drops it
// (sweeps.Sweeper.Retain).
const limitWindow = max(outgoing.LongestWindow, lobbyWindow, inviteWindow, inviteWeek)
