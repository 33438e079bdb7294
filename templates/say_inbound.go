// The sentences of internal/daemon/inbound.go.

package templates

func (English) CommandFromSubject() string {
	return "pbem read your command from the Subject line, because the text of your mail held none."
}
