package main

import "runtime/debug"

// version is what --version prints: the main module's version and the
// VCS revision from the build info. It is srgen's own (the servers' is
// front.Build) because srgen must build from stale generated code,
// so it imports no runtime package.
func version() string {
	v, rev, dirty, goVersion := "(devel)", "unknown", false, ""
	if info, ok := debug.ReadBuildInfo(); ok {
		goVersion = info.GoVersion
		if info.Main.Version != "" {
			v = info.Main.Version
		}
		for _, s := range info.Settings {
			switch s.Key {
			case "vcs.revision":
				rev = s.Value
			case "vcs.modified":
				dirty = s.Value == "true"
			}
		}
	}
	if dirty && rev != "unknown" {
		rev += "+dirty"
	}
	return v + ", revision " + rev + ", " + goVersion
}
