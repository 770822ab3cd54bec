package resolver

import (
	"fmt"
	"io"
	"strings"

	"github.com/sextantdev/sextant/internal/textio"
	"github.com/sextantdev/sextant/internal/words"
)

// WriteText writes what serves each API of the application: per API, its
// objects, its source, why the provider was chosen, the alternatives, the
// near misses and warnings; then nothing else (the plan is the
// Resolution's to answer).
func (app *Application) WriteText(w io.Writer) error {
	ew := &textio.ErrWriter{W: w}
	app.writeText(ew)
	return ew.Err
}

func (app *Application) writeText(w io.Writer) {
	fmt.Fprintf(w, "application in namespace %s: %s, %s to create\n", app.Namespace, words.Plural(len(app.Kinds), "API"), words.Plural(len(app.Subscriptions), "subscription"))
	for _, k := range app.Kinds {
		fmt.Fprintf(w, "  %s", k.API)
		if n := len(k.Objects); n > 0 {
			fmt.Fprintf(w, " (%s)", strings.Join(words.Limit(quoteNames(k.Objects), 3), ", "))
		}
		fmt.Fprint(w, ": ")
		switch k.Source {
		case SourceBuiltIn:
			fmt.Fprintln(w, "built into Kubernetes, needs nothing")
		case SourceOLM:
			fmt.Fprintln(w, "served by OLM itself, needs nothing")
		case SourceInstalled:
			fmt.Fprintf(w, "already served by installed CSV %s\n", k.CSV)
		case SourceSubscribed:
			fmt.Fprintf(w, "package %s, through existing subscription %s\n", k.Provider.Package, k.Subscription)
			fmt.Fprintf(w, "      channel %s, catalog %s, head %s\n", k.Provider.Channel, k.Provider.Catalog, k.Provider.Bundle)
		case SourceCatalog:
			fmt.Fprintf(w, "package %s, subscription %s to create\n", k.Provider.Package, k.Subscription)
			fmt.Fprintf(w, "      channel %s, catalog %s, head %s\n", k.Provider.Channel, k.Provider.Catalog, k.Provider.Bundle)
		case SourceNone:
			fmt.Fprintln(w, "nothing provides it")
		}
		if k.Why != "" {
			fmt.Fprintf(w, "      chosen: %s\n", k.Why)
		}
		if len(k.Alternatives) > 0 {
			alts := make([]string, len(k.Alternatives))
			for i, p := range k.Alternatives {
				alts[i] = p.String()
			}
			fmt.Fprintf(w, "      alternatives: %s\n", strings.Join(words.Limit(alts, 5), "; "))
		}
		for _, m := range k.NearMisses {
			fmt.Fprintf(w, "      near miss: %s\n", m)
		}
		for _, warning := range k.Warnings {
			fmt.Fprintf(w, "      warning: %s\n", warning)
		}
	}
}

// quoteNames quotes the names that hold a space, a quote or a control
// character.
func quoteNames(s []string) []string {
	out := make([]string, len(s))
	for i, n := range s {
		out[i] = n
		if strings.ContainsAny(n, " \t\n\"") || strings.ContainsFunc(n, func(r rune) bool { return r < 0x20 || r == 0x7f }) {
			out[i] = fmt.Sprintf("%q", n)
		}
	}
	return out
}
