// The doc site's Docusaurus configuration. `make site` writes the pages
// into docs/ (srgen docs --out docs/site/docs: the guides, the reference
// pages and sidebars.js), builds the site into build/, and checks the
// build in headless Chromium (check.mjs).
//
// The pages are CommonMark, not MDX: markdown.format 'detect' reads a .md
// file as CommonMark. Every broken link, anchor or image fails the build.

/** @type {import('@docusaurus/types').Config} */
module.exports = {
  title: 'vllm-sr System One',
  tagline: 'The System One schema layer of vLLM Semantic Router',
  // The site is served from wherever it is copied; the check serves it on
  // loopback. url is required by Docusaurus, and used only in meta tags.
  url: 'http://127.0.0.1',
  baseUrl: '/',
  favicon: 'favicon.svg',
  // /errors is build/errors.html, as check.mjs serves it.
  trailingSlash: false,
  onBrokenLinks: 'throw',
  onBrokenAnchors: 'throw',
  onDuplicateRoutes: 'throw',
  markdown: {
    format: 'detect',
    hooks: {
      onBrokenMarkdownLinks: 'throw',
      onBrokenMarkdownImages: 'throw',
    },
  },
  i18n: { defaultLocale: 'en', locales: ['en'] },
  presets: [
    [
      'classic',
      /** @type {import('@docusaurus/preset-classic').Options} */
      ({
        docs: {
          path: 'docs',
          routeBasePath: '/',
          sidebarPath: require.resolve('./docs/sidebars.js'),
        },
        blog: false,
        pages: false,
        sitemap: false,
        theme: { customCss: require.resolve('./custom.css') },
      }),
    ],
  ],
  themeConfig:
    /** @type {import('@docusaurus/preset-classic').ThemeConfig} */
    ({
      navbar: {
        title: 'vllm-sr System One',
        items: [
          { type: 'docSidebar', sidebarId: 'docs', position: 'left', label: 'Docs' },
        ],
      },
      prism: { additionalLanguages: ['bash', 'json', 'yaml'] },
    }),
};
