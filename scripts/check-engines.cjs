#!/usr/bin/env node
// Every installed package must accept the oldest Node.js version package.json promises, so a fresh
// `npm install` on it prints no EBADENGINE warning. Optional packages for other platforms count too.
const { readFileSync } = require('node:fs');
const { join } = require('node:path');
const semver = require('semver');

const root = join(__dirname, '..');
const lock = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8'));
const promised = semver.minVersion(lock.packages[''].engines.node);
const refusing = Object.entries(lock.packages)
  .filter(([path, entry]) => path !== '' && typeof entry.engines?.node === 'string')
  .filter(([, entry]) => !semver.satisfies(promised, entry.engines.node))
  .map(([path, entry]) => `${path.replace(/^.*node_modules\//, '')}@${entry.version} wants node ${entry.engines.node}`);
if (refusing.length > 0) {
  process.stderr.write(`package.json promises Node.js ${promised}, which these packages refuse:\n  ${refusing.join('\n  ')}\n`);
  process.exit(1);
}
