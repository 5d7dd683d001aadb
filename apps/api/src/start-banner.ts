/** What a new user needs after `npm start`: where to go, who to sign in as, where to send errors. */
export interface StartBannerFacts {
  url: string;
  email: string;
  /** Only when generated at this start: it is shown this once. */
  generatedPassword?: string;
  /** Only when generated at this start: it is shown this once. */
  generatedToken?: string;
  project?: { org: string; slug: string; dsn: string };
}

/** Plain text, whatever LOG_FORMAT says: it is read by a person, once. */
export function formatStartBanner(facts: StartBannerFacts): string {
  const lines = ['', `  Faultline is running. Open ${facts.url}/ and sign in as ${facts.email}`];
  if (facts.generatedPassword) lines.push(`  Password: ${facts.generatedPassword}   (generated now and shown once: store it)`);
  if (facts.generatedToken) lines.push(`  API token: ${facts.generatedToken}   (shown once: store it)`);
  if (facts.project) {
    lines.push(`  DSN of ${facts.project.org}/${facts.project.slug}: ${facts.project.dsn}`);
    lines.push(`  SDK setup: ${facts.url}/settings/${facts.project.org}/projects/${facts.project.slug}/keys/`);
  }
  return `${lines.join('\n')}\n\n`;
}
