package cli

import (
	"errors"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/sextantdev/sextant"
	"github.com/sextantdev/sextant/catalogimage"
	"github.com/sextantdev/sextant/internal/words"
	"github.com/sextantdev/sextant/olmv1"
	"github.com/sextantdev/sextant/openshift"
	"github.com/sextantdev/sextant/resolver"
)

// flagAdvice is the CLI's advice for an error the library types: how a
// flag (or an argument) of cmd changes the outcome, written at the end of
// the error's line. The library's messages state facts and name no flag;
// advice names only a flag cmd has, so that no command advises one it
// does not take. It returns "" when there is no advice.
func flagAdvice(cmd *cobra.Command, err error) string {
	var invalid *resolver.InvalidPackageError
	var notCatalog *catalogimage.NotCatalogError
	var plain *catalogimage.PlainHTTPError
	var version *openshift.VersionError
	var images *openshift.ImageNeed
	var srcImage *sextant.SourceImageError
	var offline *catalogimage.OfflineError
	switch {
	case errors.As(err, &srcImage) && errors.As(err, &offline) && cmd.Flag("catalog") != nil:
		return fmt.Sprintf("; give its catalog with --catalog %s=PATH (a file, a folder or an image on disk)", srcImage.CatalogSource.Name)
	case errors.As(err, &version) && version.Missing && cmd.Flag("openshift-version") != nil:
		return "; give it with --openshift-version"
	case errors.As(err, &images) && cmd.Flag("catalog") != nil:
		var off *catalogimage.OfflineError
		if errors.As(err, &off) {
			return "; pull it once without --offline, or give the catalog with --catalog NAME=PATH (NAME@MINOR=PATH for a later minor)"
		}
		return "; or give the catalog with --catalog NAME=PATH (NAME@MINOR=PATH for a later minor)"
	case errors.As(err, &invalid) && cmd.Flag("allow-invalid") != nil:
		return "; resolve with --allow-invalid to leave the package out"
	case errors.As(err, &notCatalog) && notCatalog.SQLite:
		if cmd.Flag("catalog") != nil {
			return ", or give the FBC with --catalog"
		}
		return ", or give the FBC (a file or folder) instead"
	case errors.As(err, &plain) && cmd.Flag("insecure") != nil:
		return fmt.Sprintf("; --insecure %s allows it", plain.Registry)
	}
	return ""
}

// noteUnlisted says, after a v1 answer's text written with opts, that
// --full lists the bundles passed over that the text only counts.
func (e *env) noteUnlisted(res *olmv1.Outcome, opts olmv1.TextOptions) {
	if n := res.Unlisted(opts); n > 0 {
		e.notef("--full lists the %s passed over that the text only counts", words.Plural(n, "bundle"))
	}
}

// noteApprove says, after the text of a rollout that waits for approval,
// that --approve simulates approving every plan.
func (e *env) noteApprove(a *sextant.RolloutAnswer) {
	if a.Waiting {
		e.notef("--approve simulates approving every plan that waits for approval")
	}
}
