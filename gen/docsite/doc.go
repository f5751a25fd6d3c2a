// Package docsite is the doc site `srgen docs --out DIR` writes, and the
// checks that keep the guides true.
//
// The site is a Docusaurus docs directory that mirrors docs/: the guides
// (docs/*.md, hand-written, each with its own front matter) at its root,
// the files they link to beside them, the reference pages under
// reference/ (what `srgen generate` writes into docs/reference, with front
// matter put before the generated-file header), a page for each OpenAPI
// document (the generated vllm-sr/5.0 one and the frozen
// specs/systemone/vllm-sr-4.0.openapi.yaml, copied under reference/), and
// sidebars.js. Because the layout mirrors docs/, a relative link means the
// same file in the repository and on the site, so one check covers both.
// The pages are CommonMark: a Docusaurus 3 site reads them with
// markdown.format 'detect'.
//
// The checks (Scan, CheckLinks, Commands, CheckCobra, CheckMake) are used
// by the tests in gen and cmd/*: every relative link and anchor resolves,
// and every command a guide's shell block runs names a real command,
// subcommand, flag or make target.
package docsite
