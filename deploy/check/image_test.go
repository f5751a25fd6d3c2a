package check

import (
	"debug/elf"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
)

// imageVersion is the version the test builds the images with: what the
// labels and --version must say.
const imageVersion = "v0.0.0-check"

// ociConfig is the part of `buildah inspect --type image` the test reads.
type ociConfig struct {
	OCIv1 struct {
		Config struct {
			User         string              `json:"User"`
			ExposedPorts map[string]struct{} `json:"ExposedPorts"`
			Entrypoint   []string            `json:"Entrypoint"`
			Cmd          []string            `json:"Cmd"`
			Labels       map[string]string   `json:"Labels"`
		} `json:"config"`
	} `json:"OCIv1"`
}

// TestImage: `make image` builds both images FROM scratch; each carries
// static binaries, the CA bundle, a non-root user by number with its
// passwd line, the OCI labels and its ports; the vllm-srun image's default
// command, started with `buildah run --isolation=chroot` on a free
// loopback port, answers the README's Try-it request with a noul
// probability; the vllm-sr image's default configuration passes `vllm-sr
// config check` inside the image, and its default command, with a
// configuration mounted over that one, answers the same request through
// the runtime.
func TestImage(t *testing.T) {
	buildah := needTool(t, "buildah", "buildah")
	tag := "check"
	// The revision before the build, as make reads it.
	revision := strings.TrimSpace(run(t, time.Minute, repoRoot, "git", "rev-parse", "HEAD"))
	run(t, 15*time.Minute, repoRoot, "make", "image", "VERSION="+imageVersion, "IMAGE_TAG="+tag)
	// The images go when the test ends (after the containers made from
	// them: cleanups run last first), so runs leave none behind.
	t.Cleanup(func() { _, _ = runQuiet(buildah, "rmi", "localhost/vllm-sr:"+tag, "localhost/vllm-srun:"+tag) })

	want := map[string]struct {
		ports []string
		cmd   []string
	}{
		"vllm-srun": {[]string{"8100/tcp"}, []string{"serve", "vllm-sr/vela3-fast", "--host", "0.0.0.0", "--port", "8100"}},
		"vllm-sr":   {[]string{"8080/tcp"}, []string{"serve", "--config", "/etc/vllm-sr/router.yaml"}},
	}
	containers := map[string]string{}
	for name, w := range want {
		image := "localhost/" + name + ":" + tag
		var got ociConfig
		if err := json.Unmarshal([]byte(run(t, time.Minute, "", buildah, "inspect", "--type", "image", image)), &got); err != nil {
			t.Fatalf("%s: buildah inspect: %v", image, err)
		}
		c := got.OCIv1.Config
		for label, v := range map[string]string{
			"org.opencontainers.image.version":  imageVersion,
			"org.opencontainers.image.revision": revision,
			"org.opencontainers.image.source":   "https://github.com/vllm-sr/systemone",
			"org.opencontainers.image.licenses": "Apache-2.0",
			"org.opencontainers.image.title":    name,
		} {
			if c.Labels[label] != v {
				t.Errorf("%s: label %s = %q, want %q", image, label, c.Labels[label], v)
			}
		}
		if c.User != "65532:65532" {
			t.Errorf("%s: user %q, want 65532:65532 (non-root, by number)", image, c.User)
		}
		var ports []string
		for p := range c.ExposedPorts {
			ports = append(ports, p)
		}
		if !reflect.DeepEqual(ports, w.ports) {
			t.Errorf("%s: exposes %v, want %v", image, ports, w.ports)
		}
		if !reflect.DeepEqual(c.Entrypoint, []string{"/usr/bin/" + name}) || !reflect.DeepEqual(c.Cmd, w.cmd) {
			t.Errorf("%s: entrypoint %q cmd %q, want [/usr/bin/%s] %q", image, c.Entrypoint, c.Cmd, name, w.cmd)
		}

		ctr := strings.TrimSpace(run(t, time.Minute, "", buildah, "from", "--name", "deploy-check-"+name, image))
		containers[name] = ctr
		t.Cleanup(func() { _, _ = runQuiet(buildah, "rm", ctr) })
		checkRootfs(t, buildah, ctr, name)

		// --version inside the image prints the release version.
		out := run(t, time.Minute, "", buildah, "run", "--isolation=chroot", ctr, "/usr/bin/"+name, "--version")
		if !strings.HasPrefix(out, name+" "+imageVersion+", revision ") {
			t.Errorf("%s --version in the image: %q, want %s %s", name, out, name, imageVersion)
		}
		size := strings.TrimSpace(run(t, time.Minute, "", buildah, "images", "--format", "{{.Size}}", image))
		t.Logf("%s: %s (buildah images --format '{{.Size}}' %s)", image, size, image)
	}

	// The Router image's default configuration is valid.
	if out := run(t, time.Minute, "", buildah, "run", "--isolation=chroot", containers["vllm-sr"],
		"/usr/bin/vllm-sr", "config", "check", "/etc/vllm-sr/router.yaml"); !strings.Contains(out, "deployment vllm-sr/vela3-fast") {
		t.Errorf("config check of the image's router.yaml: %q", out)
	}

	// The runtime image's default command, on loopback and a free port:
	// later flags win, so only the address changes.
	port := freePort(t)
	args := append([]string{"run", "--isolation=chroot", containers["vllm-srun"], "--"}, "/usr/bin/vllm-srun")
	args = append(append(args, want["vllm-srun"].cmd...), "--host", "127.0.0.1", "--port", itoa(port))
	srun := start(t, buildah, args...)
	base := "http://127.0.0.1:" + itoa(port)
	waitOK(t, srun, base+"/ready", 30*time.Second)
	p := tryIt(t, base)
	t.Logf("Try it through the image: urgent noul %.4f", p)

	// The Router image's default command with a configuration mounted
	// over the default one, sending System One to that runtime: the same
	// request through the Router.
	dir := t.TempDir()
	routerPort := freePort(t)
	config := "listeners:\n  - name: public\n    address: 127.0.0.1:" + itoa(routerPort) + "\n    apis:\n      systemone: {}\n" +
		"deployments:\n  vllm-sr/vela3-fast:\n    provider: systemone\n    endpoint: " + base + "/v1/systemone\n" +
		"    model: vllm-sr/vela3-fast\n    schema: vllm-sr/5.0\n    required: true\n"
	if err := os.WriteFile(filepath.Join(dir, "router.yaml"), []byte(config), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(dir, 0o755); err != nil { // the image's user 65532 reads it
		t.Fatal(err)
	}
	args = append([]string{"run", "--isolation=chroot", "-v", dir + ":/etc/vllm-sr:ro", containers["vllm-sr"], "--", "/usr/bin/vllm-sr"}, want["vllm-sr"].cmd...)
	router := start(t, buildah, args...)
	routerURL := "http://127.0.0.1:" + itoa(routerPort)
	waitOK(t, router, routerURL+"/ready", 30*time.Second)
	t.Logf("Try it through the Router image: urgent noul %.4f", tryIt(t, routerURL))
}

// checkRootfs reads the image's files: the binary is static (no ELF
// interpreter), the CA bundle is Debian's, passwd names the user 65532.
func checkRootfs(t *testing.T, buildah, ctr, name string) {
	t.Helper()
	mnt := strings.TrimSpace(run(t, time.Minute, "", buildah, "mount", ctr))
	t.Cleanup(func() { _, _ = runQuiet(buildah, "umount", ctr) })
	f, err := elf.Open(filepath.Join(mnt, "usr/bin", name))
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	defer f.Close()
	for _, p := range f.Progs {
		if p.Type == elf.PT_INTERP {
			t.Errorf("%s in the image is dynamically linked (has an ELF interpreter): build it with CGO_ENABLED=0", name)
		}
	}
	if ca, err := os.ReadFile(filepath.Join(mnt, "etc/ssl/certs/ca-certificates.crt")); err != nil || strings.Count(string(ca), "BEGIN CERTIFICATE") < 50 {
		t.Errorf("%s: the image's CA bundle: %v, %d certificates", name, err, strings.Count(string(ca), "BEGIN CERTIFICATE"))
	}
	if passwd, err := os.ReadFile(filepath.Join(mnt, "etc/passwd")); err != nil || !strings.Contains(string(passwd), ":x:65532:65532:") {
		t.Errorf("%s: /etc/passwd has no user 65532: %v %q", name, err, passwd)
	}
}
