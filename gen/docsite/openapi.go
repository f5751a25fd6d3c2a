package docsite

import (
	"fmt"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/vllm-sr/systemone/gen/emit"
)

// openAPISuffix ends the name of every OpenAPI document under reference/
// (emit.OpenAPIFileName).
const openAPISuffix = ".openapi.yaml"

// openAPIHead is what a page says about an OpenAPI document, read from the
// document itself so the page cannot disagree with it.
type openAPIHead struct {
	OpenAPI string `yaml:"openapi"`
	Info    struct {
		Title   string `yaml:"title"`
		Version string `yaml:"version"`
	} `yaml:"info"`
	Schema string `yaml:"x-srgen-schema"`
}

// openAPIPage is the page of the OpenAPI document name beside it
// (vllm-sr-5.0.openapi.yaml gets vllm-sr-5.0-openapi.md), linking it.
// source is the repository path of a frozen document, "" for a generated
// one.
func openAPIPage(name string, data []byte, source string) (emit.File, error) {
	var h openAPIHead
	if err := yaml.Unmarshal(data, &h); err != nil {
		return emit.File{}, fmt.Errorf("%s: %w", name, err)
	}
	if h.OpenAPI == "" || h.Schema == "" {
		return emit.File{}, fmt.Errorf("%s: an OpenAPI document with openapi and x-srgen-schema", name)
	}
	id := strings.TrimSuffix(name, openAPISuffix) + "-openapi"
	fm := FrontMatter{ID: id, Title: h.Schema + " OpenAPI document", SidebarLabel: h.Schema + " OpenAPI"}
	origin := "srgen generates it from the specifications, with the other reference pages; in the repository it is `docs/reference/" + name + "`."
	if source != "" {
		origin = "It is the frozen specification `" + source + "`, written by hand and copied here as it is."
	}
	body := fmt.Sprintf("%s\n\n# %s\n\n[`%s`](%s) is the contract of a `%s` server as an OpenAPI %s document "+
		"(`info.title` %q, `info.version` %q).\n\n%s\n",
		emit.MarkdownHeader, fm.Title, name, name, h.Schema, h.OpenAPI, h.Info.Title, h.Info.Version, origin)
	return emit.File{Path: id + ".md", Data: fm.Prepend([]byte(body))}, nil
}
