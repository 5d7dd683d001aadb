/** The SDKs the setup pages show, by Sentry platform id: the official SDK's install and minimal init. */
export interface Snippet {
  platform: string;
  label: string;
  install: string;
  language: string;
  code: (dsn: string) => string;
}

/** JSON string quoting also suits Go, Java, C#, Python and Ruby strings for a DSN (no quotes or backslashes in it). */
const quoted = (value: string) => JSON.stringify(value);

export const SNIPPETS: readonly Snippet[] = [
  {
    platform: 'javascript',
    label: 'Browser JavaScript',
    install: 'npm install --save @sentry/browser',
    language: 'javascript',
    code: (dsn) => `import * as Sentry from "@sentry/browser";\n\nSentry.init({\n  dsn: ${quoted(dsn)},\n});`,
  },
  {
    platform: 'node',
    label: 'Node.js',
    install: 'npm install --save @sentry/node',
    language: 'javascript',
    code: (dsn) => `const Sentry = require("@sentry/node");\n\nSentry.init({\n  dsn: ${quoted(dsn)},\n});`,
  },
  {
    platform: 'python',
    label: 'Python',
    install: 'pip install --upgrade sentry-sdk',
    language: 'python',
    code: (dsn) => `import sentry_sdk\n\nsentry_sdk.init(\n    dsn=${quoted(dsn)},\n)`,
  },
  {
    platform: 'go',
    label: 'Go',
    install: 'go get github.com/getsentry/sentry-go',
    language: 'go',
    code: (dsn) =>
      `err := sentry.Init(sentry.ClientOptions{\n\tDsn: ${quoted(dsn)},\n})\nif err != nil {\n\tlog.Fatalf("sentry.Init: %s", err)\n}\ndefer sentry.Flush(2 * time.Second)`,
  },
  {
    platform: 'java',
    label: 'Java',
    install: 'implementation "io.sentry:sentry:8.+"   // Gradle; Maven: io.sentry:sentry',
    language: 'java',
    code: (dsn) => `import io.sentry.Sentry;\n\nSentry.init(options -> {\n  options.setDsn(${quoted(dsn)});\n});`,
  },
  {
    platform: 'dotnet',
    label: '.NET',
    install: 'dotnet add package Sentry',
    language: 'csharp',
    code: (dsn) => `using Sentry;\n\nSentrySdk.Init(options =>\n{\n    options.Dsn = ${quoted(dsn)};\n});`,
  },
  {
    platform: 'php',
    label: 'PHP',
    install: 'composer require sentry/sentry',
    language: 'php',
    code: (dsn) => `\\Sentry\\init([\n    'dsn' => '${dsn}',\n]);`,
  },
  {
    platform: 'ruby',
    label: 'Ruby',
    install: 'gem install sentry-ruby',
    language: 'ruby',
    code: (dsn) => `require "sentry-ruby"\n\nSentry.init do |config|\n  config.dsn = ${quoted(dsn)}\nend`,
  },
];

/** The snippet for a project's platform (`javascript-react` reads as `javascript`), or the first. */
export function snippetFor(platform: string | null | undefined): Snippet {
  const base = (platform ?? '').split('-')[0];
  return SNIPPETS.find((snippet) => snippet.platform === platform || snippet.platform === base) ?? SNIPPETS[0];
}

/** The platforms a new project can choose, with Sentry's ids. */
export const PLATFORMS: ReadonlyArray<readonly [string, string]> = [
  ...SNIPPETS.map((snippet) => [snippet.platform, snippet.label] as const),
  ['other', 'Other'],
];
