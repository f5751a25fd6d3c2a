// The doc site's Docusaurus configuration. `make site` writes the pages
// into docs/ (srgen docs --out docs/site/docs: the guides, the reference
// pages and sidebars.js), builds the site into build/, and checks the
// build in headless Chromium (check.mjs).
//
// The pages are CommonMark, not MDX: markdown.format 'detect' reads a .md
// file as CommonMark. Every broken link, anchor or image fails the build.
//
// What readers of vLLM's or Envoy's docs expect, each checked by
// check.mjs: a search box whose index is built with the site and served
// from it (no outside service), a footer with the repository, an "Edit
// this page" link on every guide (the generated reference pages are
// edited through their specs and generator, so they have none), the
// system's light or dark preference followed, and clean URLs (/errors,
// not /errors.html) under `npm run serve`.

// repository is the project's home; edit links point into its main branch.
const repository = 'https://github.com/vllm-sr/systemone';

// editUrl is a page's source in the repository: a guide is docs/<path>
// there. The generated pages (reference/, the OpenAPI pages, and the
// landing page srgen makes from the README) have no hand-written source
// to edit, so they get no link.
function editUrl({ docPath }) {
  if (docPath.startsWith('reference/') || docPath === 'index.md') return undefined;
  return `${repository}/edit/main/docs/${docPath}`;
}

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
          editUrl,
        },
        blog: false,
        pages: false,
        sitemap: false,
        theme: { customCss: require.resolve('./custom.css') },
      }),
    ],
  ],
  themes: [
    [
      // Local search: the index is built with the site (build/search-index*.json)
      // and searched in the browser.
      require.resolve('@easyops-cn/docusaurus-search-local'),
      /** @type {import('@easyops-cn/docusaurus-search-local').PluginOptions} */
      ({
        docsRouteBasePath: '/',
        indexBlog: false,
        indexPages: false,
        hashed: true,
        language: ['en'],
        highlightSearchTermsOnTargetPage: false,
        explicitSearchResultPath: true,
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
      colorMode: { defaultMode: 'light', respectPrefersColorScheme: true },
      footer: {
        style: 'dark',
        links: [
          {
            title: 'Project',
            items: [
              { label: 'GitHub repository', href: repository },
              { label: 'Issues', href: `${repository}/issues` },
            ],
          },
          {
            title: 'Docs',
            items: [
              { label: 'Getting started', to: '/getting-started' },
              { label: 'Glossary', to: '/glossary' },
            ],
          },
        ],
        copyright: 'vllm-sr System One: the System One schema layer of vLLM Semantic Router.',
      },
      prism: { additionalLanguages: ['bash', 'json', 'yaml', 'http'] },
    }),
};
