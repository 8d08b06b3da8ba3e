// ESLint's rules for the browser front end (src/hisss/server/static) and its unit tests
// (tests/js). .ci/run installs ESLint, its recommended rules and the lists of globals into
// .browser-tools (no lock file, nothing committed), where this file finds them;
// tests/test_js.py runs it.

const tools = new URL("./.browser-tools/node_modules/", import.meta.url);
const { default: js } = await import(new URL("@eslint/js/src/index.js", tools).href);
const { default: globals } = await import(new URL("globals/index.js", tools).href);

export default [
  js.configs.recommended,
  {
    files: ["src/hisss/server/static/**/*.js"],
    languageOptions: {
      ecmaVersion: 2023,
      sourceType: "module",
      globals: { ...globals.browser },
    },
    rules: {
      "no-unused-vars": ["error", { args: "after-used", caughtErrors: "none" }],
      eqeqeq: ["error", "always"],
      "no-var": "error",
      "prefer-const": "error",
      "max-lines": ["error", { max: 400, skipBlankLines: false, skipComments: false }],
    },
  },
  {
    files: ["src/hisss/server/static/sw.js"],
    languageOptions: {
      globals: { ...globals.serviceworker, VERSION: "readonly", FILES: "readonly" },
    },
  },
  {
    files: ["tests/js/**/*.mjs"],
    languageOptions: { ecmaVersion: 2023, sourceType: "module", globals: { ...globals.node } },
  },
];
