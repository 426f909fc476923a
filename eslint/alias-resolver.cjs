// Import resolver for eslint-plugin-boundaries: the "~/" alias of tsconfig.json points at app/,
// everything else is resolved as Node does.
/* global require, module, __dirname */
const path = require("node:path");
const node = require("eslint-import-resolver-node");

const APP = path.resolve(__dirname, "..", "app");
const EXTENSIONS = [".ts", ".tsx", ".js", ".mjs", ".cjs", ".json"];

module.exports = {
  interfaceVersion: 2,
  resolve(source, file, config) {
    const target = source.startsWith("~/") ? path.join(APP, source.slice(2)) : source;
    return node.resolve(target, file, { extensions: EXTENSIONS, ...config });
  },
};
