package parser

// phoneFooterForms are the footers phones' and apps' mail programs put
// below a reply, in their own translations, with {device} where the
// device's or the app's name stands (see docs/client-replies.md for
// where each comes from). Case does not matter.
var phoneFooterForms = []string{
	"Von meinem {device} gesendet",
	"Verstuurd vanaf mijn {device}",
	"发自我的{device}",
	"{device}から送信",
	"Scarica Outlook per {device}",
}
