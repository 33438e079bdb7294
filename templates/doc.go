// Package templates renders every mail pbem sends: the plain text, the
// primary and complete form that replies quote, from text/template files
// embedded from templates/text (and the game's own); and an HTML part
// with the same content from html/template files embedded from
// templates/html (and the game's), sent beside it as
// multipart/alternative.
//
// A game mail (Renderer.Game) is personal and has, in one order for the
// text and the HTML part, the action first:
//
//   - the headline and the marker line the parser cuts replies at;
//   - the intro lines, such as "Applied: bid 4." or why the reader's last
//     mail failed, and the story: everything that happened since his
//     last mail, once and in order, his own acts in the second person
//     ("You bid 2.", engine.Addresser), so that no effect stands above
//     its cause; the first command offered follows it at once;
//   - what he can do now: "Your move: reply by DEADLINE with one of
//     these:", then one line per kind of move ("play -8 · 3 · rabbit",
//     every value a button in HTML; "bid 2 · 3 · 4 · … · 17"; or a
//     pattern with a real example, "take T keep COLOUR give PLAYER, e.g.
//     take 1 keep red give bob"), never a pattern of choices; or, when no
//     move is asked of him, where he stands ("You passed: you are out of
//     this auction; ...", "Not your turn yet; you may send these now:")
//     and whom the game waits on, since when, once;
//   - in the first mail, the game's short rules (how to win and score);
//     in every other, one line on what he plays for;
//   - the table, compact, as the reader may see it, and his own hand;
//   - for a history, "The whole game so far";
//   - a one-line footer after the signature separator "-- " (with its
//     space, RFC 3676): help, status, history and rules, each a button in
//     HTML.
//
// The final mail shows the final scores ranked ("1st", "shared 2nd"; and
// the tie-break, when it decided) in place of the table, the reader's
// rating change in a rated game (GameMail.Rating), and a rematch button. A game may
// leave out of the events what its table or a later event says
// (engine.Condenser); the result's own events are left out of the final
// mail, whose table says them.
// Every mail of one game to one player has the same Subject, the game's
// thread subject fixed when the game was made ("Felix #12", naming no
// player; GameMail.ThreadSubject), so that every mail client shows
// the game as one conversation. What the mail is about now is its
// headline, the first line of the text (above the marker) and the first
// visible text of the HTML part, which clients show as the preview:
// "Felix #12: your turn to bid (round 4)", "Gracias #7: waiting for
// carol (session 2, round 3)", "Felix #12: game over — alice wins". A
// reminder is the status mail with "Reminder: " in front of its
// headline. No headline or body names the reader where it says whom the
// game waits for: he is "you".
//
// A notice (Renderer.Notice) is any other mail: help, rules, invite,
// joined, declined, games, refusal (to a stranger: an address not his),
// error (a mail that could not be read), invalid (a request that was read
// but cannot be done), toolarge, created, unknown. A notice in a game's
// thread (Notice.ThreadSubject: an invitation, an answer to a mail sent
// to a seat's address) has the thread's Subject, and its own subject,
// starting with the game's reference ("Felix #12: the commands you can
// send"), becomes its headline; any other notice's own subject is its
// Subject.
//
// The HTML part follows the text's order and shows cards as tiles that
// always carry a label: Felix cats with their value (positive warm,
// negative cool, the rabbit grey, dogs purple), face-down cards as dark
// striped tiles ("face down", or "yours, face down" with the value for
// the reader's own), Gracias cards in their colour with the colour's name
// and the areas as a grid of counts per colour and player. Commands are
// in <code>, selected whole with one tap. It is mail-client safe: table
// layout, inline styles (a <style> adds only dark mode and small screens),
// no scripts, no remote images or fonts, at most 600px wide and fluid on
// phones; html/template escapes every name and log line.
//
// A game's own part of its mails (the headline, the table, the final
// result, the rules summary, its cards' tiles) lives in the game's
// package, not here: engine.Presenter (engine/present.go) names it, and
// engine/felix and engine/gracias implement it in present.go with their
// templates in templates/*.tmpl. New takes the games it renders and adds
// each game's templates to a clone of its own; this package imports no
// game (layering_test.go checks it).
//
// The golden files in testdata/golden pin each mail's own part; the page
// around the HTML part (page.html) and the notices' footer
// (footer-notice.*) are pinned once each; a game mail's footer, whose
// buttons answer that mail, stays in its own golden. Run go test -update and review
// the diff after changing a template.
//
// The renderer shows only what it is given: views and events must already
// be filtered for the reader. Lines are wrapped at 72 characters for
// phones; templates may be written with free blank lines and long lines,
// since the renderer tidies the result.
package templates
