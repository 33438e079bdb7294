// Package mailer moves mail in and out of pbem: an IMAP Inbox that hands each
// new message to a handler exactly once per successful handling and then marks
// it processed, an SMTP Sender that delivers already-built messages
// unchanged, and ReadAll, a small IMAP reader for tests and demos.
//
// The package knows mail and nothing about games. Exactly-once processing is
// shared with the caller: the Inbox reads where it left off from a Cursor,
// passes UIDVALIDITY and UID with every Message, and the caller records them
// in the same transaction as the message's effects. A message is marked
// processed (a keyword, or a move to a folder) only after the handler
// returned nil; a crash between the two is repaired on the next connection,
// because the cursor already covers the message.
//
// The sub-package embedded runs in-process IMAP and SMTP servers on loopback
// that behave like a Postfix + Dovecot pair as far as pbem can tell.
package mailer
