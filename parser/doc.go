// Package parser reads what a player wrote in an email.
//
// It works in two steps that the daemon, `pbem parse` and the tests share:
//
//  1. Extract turns a raw RFC 5322 message into a Message: the header
//     fields the daemon routes on, and Text, the player's own new text.
//     It picks the text/plain body (or converts an HTML-only body to
//     text), decodes transfer encodings and charsets, normalises the odd
//     characters mail clients insert, and cuts everything the player did
//     not write now: quotes, attribution lines, forwarded and Outlook
//     header blocks, signatures, phone footers and copies of pbem's own
//     mail.
//  2. Read reads Text as commands, top down, in a Grammar: the lobby
//     commands every player may send plus, inside a game, that game's
//     command grammar (its engine.Specs) and player names. It knows no
//     game: everything game-specific comes from the Specs.
//
// The inbox is open to anyone, so Extract bounds the work a message
// costs: a linear pre-scan refuses shapes no client writes (ErrHostile)
// before the MIME parser sees them, and the text and HTML after it are
// bounded (see ExtractOptions). It reads From strictly (FromProblem),
// and Automatic, CheckAddress and SanitizeName help the daemon decide
// whom to answer and how to show what a stranger wrote. Package
// parser/hostile builds the mails the tests hold all this to.
//
// Neither step does any I/O beyond reading the message it is given.
package parser
