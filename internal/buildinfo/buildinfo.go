package buildinfo

import "runtime/debug"

// Language is the Jaiph language version this implementation is compatible
// with (`jaiph --version`).
const Language = "0.5.0"

// Generator names jaiph-go in the header of the lowered files it writes.
const Generator = "jaiph-go " + Language

// buildVersion is jaiph-go's own version, set at build time by the Makefile
// (`-ldflags -X github.com/jaiph-go/jaiph/internal/buildinfo.buildVersion=…`, from git describe); a plain `go build`
// falls back to the module's build information.
var buildVersion = ""

// Version is jaiph-go's version for `jaiph version`: the stamped one, else
// the module version and VCS revision Go recorded, else "dev".
func Version() string {
	if buildVersion != "" {
		return buildVersion
	}
	v := "dev"
	if bi, ok := debug.ReadBuildInfo(); ok {
		if bi.Main.Version != "" && bi.Main.Version != "(devel)" {
			v = bi.Main.Version
		}
		var rev, dirty string
		for _, s := range bi.Settings {
			switch s.Key {
			case "vcs.revision":
				rev = s.Value
			case "vcs.modified":
				if s.Value == "true" {
					dirty = "-dirty"
				}
			}
		}
		if len(rev) > 12 {
			rev = rev[:12]
		}
		if rev != "" {
			v += " (" + rev + dirty + ")"
		}
	}
	return v
}
