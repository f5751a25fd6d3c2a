// Package docsite is the doc site `srgen docs --out DIR` writes, and the
// checks that keep the guides true.
//
// The site is a Docusaurus docs directory that mirrors docs/: the guides
// (docs/*.md and docs/design/*.md, hand-written, each with its own front
// matter and description) at its root, the files they link to beside
// them, the reference pages under reference/ (what `srgen generate` writes
// into docs/reference, with front matter put before the generated-file
// header), the OpenAPI documents (the generated vllm-sr/5.0 one and the
// frozen specs/systemone/vllm-sr-4.0.openapi.yaml, copied under
// reference/) with pages made from each by kin-openapi's model (an
// overview, a page per operation and one per component schema), a landing
// page at the site's root URL (index.md: the README's opening and every
// section's pages), and sidebars.js. Because the layout mirrors docs/, a
// relative link means the same file in the repository and on the site, so
// one check covers both. The pages are CommonMark, text from the OpenAPI
// documents escaped where CommonMark would read it as HTML: a Docusaurus 3
// site reads them with markdown.format 'detect' (docs/site, make site).
//
// The checks (Scan, CheckLinks, Commands, CheckCobra, CheckMake) are used
// by the tests in gen and cmd/*: every relative link and anchor resolves,
// and every command a guide's shell block runs names a real command,
// subcommand, flag or make target.
package docsite
