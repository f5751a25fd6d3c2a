package front

import (
	"runtime/debug"
	"strings"
)

// BuildInfo is what a binary knows of its own build, from the Go build
// info: what --version prints and vsr_build_info labels.
type BuildInfo struct {
	// Version is the release version the build was stamped with
	// (releaseVersion), else the main module's version: a tag, a
	// pseudo-version from the VCS state, or "(devel)".
	Version string
	// Revision is the VCS revision built, "unknown" when the build stamped
	// none (go build -buildvcs=false, or no VCS), with "+dirty" when the
	// tree had changes.
	Revision  string
	GoVersion string
}

// releaseVersion is the release version a build stamps in with
// -ldflags "-X github.com/vllm-sr/systemone/runtime/front.releaseVersion=v5.0.0":
// the Makefile sets it from `git describe --tags --match 'v*' --dirty`
// (docs/releasing.md). Empty in any other build (go build, go install,
// go test, a checkout with no release tag), where Version falls back to
// the main module's version from the build info.
var releaseVersion string

// Build reads the running binary's build info.
func Build() BuildInfo {
	b := BuildInfo{Version: "(devel)", Revision: "unknown"}
	info, ok := debug.ReadBuildInfo()
	if ok {
		b = fromBuildInfo(info)
	}
	if releaseVersion != "" {
		b.Version = releaseVersion
	}
	return b
}

// fromBuildInfo is the build info's version and revision: Version is the
// main module's (the tag on the commit built, a pseudo-version such as
// v0.0.0-20261205070000-d872625a1b2c+dirty, or "(devel)").
func fromBuildInfo(info *debug.BuildInfo) BuildInfo {
	b := BuildInfo{Version: "(devel)", Revision: "unknown", GoVersion: info.GoVersion}
	if info.Main.Version != "" {
		b.Version = info.Main.Version
	}
	dirty := false
	for _, s := range info.Settings {
		switch s.Key {
		case "vcs.revision":
			b.Revision = s.Value
		case "vcs.modified":
			dirty = s.Value == "true" //vocab:not-spec the build info's own word
		}
	}
	if dirty && b.Revision != "unknown" {
		b.Revision += "+dirty"
	}
	return b
}

// String is the one line --version prints after the command's name.
func (b BuildInfo) String() string {
	return strings.Join([]string{b.Version, "revision " + b.Revision, b.GoVersion}, ", ")
}
