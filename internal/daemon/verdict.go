package daemon

import (
	"github.com/pbem/pbem/internal/intake"
	"github.com/pbem/pbem/templates"
)

// noticeKind is the notice a refusal intake decided is sent as: intake
// judges a mail without the templates, and the daemon renders the
// answer.
func noticeKind(k intake.RefusalKind) templates.NoticeKind {
	if k == intake.RefusalTooLarge {
		return templates.NoticeTooLarge
	}
	return templates.NoticeRefusal
}
