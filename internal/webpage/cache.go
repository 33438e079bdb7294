package webpage

import (
	"bytes"
	"crypto/sha256"
	"fmt"

	"github.com/pbem/pbem/internal/pagecache"
	"github.com/pbem/pbem/store"
	"github.com/pbem/pbem/templates"
)

// What the pages keep by default (Config.CacheBytes, Config.CacheGames):
// a drawn page of a Felix game is about 30 kB, so 32 MiB hold about a
// thousand pages; a game's replay is its states at each public point
// (not weighed: a game's state is a few small arrays), counted by game.
const (
	DefaultCacheBytes int64 = 32 << 20
	DefaultCacheGames int64 = 256
)

// cache is what a Pages keeps of what it drew, bounded (pagecache.LRU):
//
//   - replays, by game: its log replayed (replay), with the stamp of the
//     log it was replayed from (store.LogStamp: the set-up, the last
//     move, the last event). Moves and events are only appended, so the
//     same stamp is the same log; a commit of the game, on this node or
//     another, appends and so changes it.
//   - pages, by game, seat and point: the page drawn, with the sum of
//     everything it was drawn from besides the replay (pageInputs.sum).
//     A page is served from here only when what it would be drawn from
//     now has the same sum: the seat's own page, never another's (the
//     seat is in the key and in the sum), in its reader's language (in
//     the sum), with the clocks as they are now (in the sum).
//
// A nil *cache keeps nothing: every page is drawn afresh.
type cache struct {
	replays *pagecache.LRU[int64, *replay]
	pages   *pagecache.LRU[pageKey, drawn]
}

// pageKey is which page: the game, the seat (engine.Public for the
// spectators') and the point shown.
type pageKey struct {
	game int64
	seat int
	at   int
}

// drawn is a page drawn: its HTML, its version, and the sum of what it
// was drawn from.
type drawn struct {
	sum     [sha256.Size]byte
	html    string
	version string
}

// newCache makes the cache of cfg's bounds; nil when either is negative.
func newCache(cfg Config) *cache {
	pageBytes, games := cfg.CacheBytes, cfg.CacheGames
	if pageBytes < 0 || games < 0 {
		return nil
	}
	if pageBytes == 0 {
		pageBytes = DefaultCacheBytes
	}
	if games == 0 {
		games = DefaultCacheGames
	}
	return &cache{
		replays: pagecache.New(games, func(int64, *replay) int64 { return 1 }),
		pages: pagecache.New(pageBytes, func(_ pageKey, d drawn) int64 {
			return int64(len(d.html) + len(d.version) + len(d.sum) + 64)
		}),
	}
}

// replay returns the game's replay if it is of the log stamp names.
func (c *cache) replay(game int64, stamp store.LogStamp) (*replay, bool) {
	if c == nil {
		return nil, false
	}
	rp, ok := c.replays.Get(game)
	if !ok || !rp.stamp.sameAs(stamp) {
		return nil, false
	}
	return rp, true
}

// keepReplay keeps a game's replay.
func (c *cache) keepReplay(rp *replay) {
	if c != nil {
		c.replays.Put(rp.gameID, rp)
	}
}

// page returns the page of key if it was drawn from inputs of sum.
func (c *cache) page(key pageKey, sum [sha256.Size]byte) (drawn, bool) {
	if c == nil {
		return drawn{}, false
	}
	d, ok := c.pages.Get(key)
	return d, ok && d.sum == sum
}

// keepPage keeps a page drawn.
func (c *cache) keepPage(key pageKey, d drawn) {
	if c != nil {
		c.pages.Put(key, d)
	}
}

// logStamp is a store.LogStamp, compared.
type logStamp store.LogStamp

func (a logStamp) sameAs(b store.LogStamp) bool {
	return a.LastSeq == b.LastSeq && a.LastEventID == b.LastEventID && bytes.Equal(a.Setup, b.Setup)
}

// sum is a hash of everything a page is drawn from besides its replay,
// which the stamp names: the link's seat, the game's row (but its saved
// state, which the page does not read), the log's stamp, every seat's
// row, the reader's language and time zone, his standings, whether the
// point is now, and the clocks at this moment. Two requests with the
// same sum draw the same page (TestCachedPageIsFreshPage).
func (in *pageInputs) sum(now bool, clocks []templates.SeatClock) [sha256.Size]byte {
	row := in.row
	row.Snapshot = nil
	h := sha256.New()
	// %#v writes every field of these plain values, names and quotes
	// and all, so that no two different inputs write the same text.
	fmt.Fprintf(h, "%d|%#v|%#v|%#v|%t|%q|%q|%#v|%t|%#v", in.seat, row, in.stamp, in.seats,
		in.hasPlayer, in.player.Language, in.player.TimeZone, in.standings, now, clocks)
	var out [sha256.Size]byte
	h.Sum(out[:0])
	return out
}

// CacheUsed is what the pages keep now: the bytes of the pages kept
// (within Config.CacheBytes), how many they are, and how many games'
// replays are kept (within Config.CacheGames). All zero without a cache.
func (s *Pages) CacheUsed() (pageBytes int64, pages, games int) {
	if s.cache == nil {
		return 0, 0, 0
	}
	pageBytes, pages = s.cache.pages.Used()
	_, games = s.cache.replays.Used()
	return pageBytes, pages, games
}
