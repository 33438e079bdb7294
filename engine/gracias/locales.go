package gracias

import (
	"embed"
	"io/fs"
)

// gracias's words in other languages than English (engine.Localizer): one
// message catalog per language, locales/LANG/*.toml, in the form
// docs/languages.md describes.
//
//go:embed locales
var localeFiles embed.FS

// Locales returns the catalogs, a folder per language.
func (Rules) Locales() fs.FS {
	sub, err := fs.Sub(localeFiles, "locales")
	if err != nil {
		panic(err) // the directory is embedded above
	}
	return sub
}
