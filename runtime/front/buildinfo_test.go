package front

import (
	"runtime/debug"
	"testing"
)

// A release build's stamp (releaseVersion, set by the Makefile's -ldflags
// -X) is the version; without one the module version from the build info
// is, and the revision and Go version come from the build info either way.
func TestBuildVersion(t *testing.T) {
	info := &debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Version: "v0.0.0-20261205070000-d872625a1b2c+dirty"},
		Settings: []debug.BuildSetting{{Key: "vcs.revision", Value: "d872625a1b2c"}, {Key: "vcs.modified", Value: "true"}}}
	got := fromBuildInfo(info)
	if want := (BuildInfo{Version: "v0.0.0-20261205070000-d872625a1b2c+dirty", Revision: "d872625a1b2c+dirty", GoVersion: "go1.26.8"}); got != want {
		t.Errorf("fromBuildInfo = %+v, want %+v", got, want)
	}
	if got := fromBuildInfo(&debug.BuildInfo{}); got.Version != "(devel)" || got.Revision != "unknown" {
		t.Errorf("no module version, no VCS: %+v", got)
	}

	before := Build()
	releaseVersion = "v5.0.1"
	defer func() { releaseVersion = "" }()
	stamped := Build()
	if stamped.Version != "v5.0.1" || stamped.Revision != before.Revision || stamped.GoVersion != before.GoVersion {
		t.Errorf("stamped build = %+v, want version v5.0.1 and the rest of %+v", stamped, before)
	}
	if s := stamped.String(); s != "v5.0.1, revision "+before.Revision+", "+before.GoVersion {
		t.Errorf("String() = %q", s)
	}
}
