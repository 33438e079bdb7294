package outgoing

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base32"
	"strconv"
	"strings"

	"github.com/pbem/pbem/store"
)

// One-click unsubscribe (RFC 8058). When pbem serves web pages, a seat's
// mails carry, beside the mailto: of unsubscribeURI, an HTTPS address
// under the web pages' base URL, /u/TOKEN, that a mail program POSTs
// to; a POST there does what the mailto: does (the daemon's
// Service.Unsubscribe).
//
// TOKEN is GAME-SEAT-MAC: the game's number and the seat's place in
// clear, so that the seat can be found, and a MAC that no one without the
// seat's secret can make: HMAC-SHA-256, keyed with the seat's own mail
// token (store.Seat.Token, the secret pbem already keeps for the seat's
// reply address), over the purpose, the game, the seat and the seat's
// player's address, cut to 128 bits. So the token
//   - is per recipient and per game: it names one seat, and holds only
//     while that seat is played from the address it was made for;
//   - cannot be forged: making one needs the seat's token, and whoever
//     has that can already send the seat's mail commands;
//   - can do nothing else: its purpose is part of what is signed, and it
//     is not the seat's token, nor its web link, so it plays nothing and
//     reads no page.
// It needs no table: the daemon checks it against the seat as stored.

// unsubscribePurpose is signed with every token, so that a MAC made by
// the same key for anything else is never one of these.
const unsubscribePurpose = "pbem/one-click-unsubscribe/v1"

// unsubscribeMACBytes is how much of the HMAC a token carries: 128 bits.
const unsubscribeMACBytes = 16

// macEncoding writes the MAC as the store's tokens are written: lower-case
// base32 without padding.
var macEncoding = base32.NewEncoding("abcdefghijklmnopqrstuvwxyz234567").WithPadding(base32.NoPadding)

// unsubscribeMACLen is the length of the MAC as written in a token.
var unsubscribeMACLen = macEncoding.EncodedLen(unsubscribeMACBytes)

// UnsubscribeToken is the one-click unsubscribe token of seat st: see
// above. A seat without a token (a bot's) has none: "".
func UnsubscribeToken(st store.Seat) string {
	if st.Token == "" || st.Address == "" {
		return ""
	}
	return strconv.FormatInt(st.GameID, 10) + "-" + strconv.Itoa(st.Seat) + "-" + macEncoding.EncodeToString(unsubscribeMAC(st))
}

// unsubscribeMAC is the MAC of seat st's token.
func unsubscribeMAC(st store.Seat) []byte {
	m := hmac.New(sha256.New, []byte(st.Token))
	// Each part ends in a NUL, which none of them holds, so that no two
	// different seats sign the same bytes.
	for _, part := range []string{unsubscribePurpose, strconv.FormatInt(st.GameID, 10), strconv.Itoa(st.Seat), store.NormalizeAddress(st.Address)} {
		m.Write([]byte(part))
		m.Write([]byte{0})
	}
	return m.Sum(nil)[:unsubscribeMACBytes]
}

// ParseUnsubscribeToken reads the game and the seat a token names, without
// saying whether it is genuine (CheckUnsubscribeToken). ok is false for
// what has not a token's shape.
func ParseUnsubscribeToken(token string) (gameID int64, seat int, ok bool) {
	parts := strings.Split(token, "-")
	if len(parts) != 3 || !digits(parts[0]) || !digits(parts[1]) || len(parts[2]) != unsubscribeMACLen {
		return 0, 0, false
	}
	if _, err := macEncoding.DecodeString(parts[2]); err != nil {
		return 0, 0, false
	}
	gameID, err := strconv.ParseInt(parts[0], 10, 64)
	if err != nil || gameID <= 0 {
		return 0, 0, false
	}
	seat, err = strconv.Atoi(parts[1])
	if err != nil {
		return 0, 0, false
	}
	return gameID, seat, true
}

// maxNumberDigits bounds the game and seat numbers of a token: more
// digits than an int64 holds is no token.
const maxNumberDigits = 18

// digits reports whether s is a number written plainly: 1 to
// maxNumberDigits ASCII digits, without a sign or a leading zero.
func digits(s string) bool {
	if s == "" || len(s) > maxNumberDigits || (len(s) > 1 && s[0] == '0') {
		return false
	}
	for _, r := range s {
		if r < '0' || r > '9' {
			return false
		}
	}
	return true
}

// CheckUnsubscribeToken reports whether token is seat st's, as the seat
// is now: the same game, place, player's address and secret. It compares
// the MACs in constant time.
func CheckUnsubscribeToken(token string, st store.Seat) bool {
	want := UnsubscribeToken(st)
	return want != "" && hmac.Equal([]byte(token), []byte(want))
}

// unsubscribeURL is the one-click unsubscribe address of seat st's mails,
// "" when pbem serves no web pages (Config.WebURL).
func (p *Post) unsubscribeURL(st store.Seat) string {
	tok := UnsubscribeToken(st)
	if p.cfg.WebURL == "" || tok == "" {
		return ""
	}
	return UnsubscribeURL(p.cfg.WebURL, tok)
}

// UnsubscribeURL is the address of a one-click unsubscribe token under
// the web pages' base URL.
func UnsubscribeURL(webURL, token string) string {
	return strings.TrimRight(webURL, "/") + "/u/" + token
}
