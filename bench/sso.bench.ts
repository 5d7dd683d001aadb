import 'reflect-metadata';
import { IDP_ENTITY_ID, IDP_SSO_URL, samlFixture, samlify, signedSamlResponse } from '../test/support/saml-identity-provider';
import { environment, percentile, round, saveResults, startApiOnFreshDatabase } from './bench-support';

/**
 * Single sign-on with SAML through the whole service (`ROLE=api`): IdP-initiated responses signed
 * by a samlify identity provider, posted one at a time to `POST /saml/acs/{org}/`: first sign-ins
 * (each a user joining just in time: XML signature, checks, user, member, link, session), then
 * sign-ins of the linked users again. The responses are signed before the clock starts, so only the
 * service's time is measured (localhost round trip included).
 *
 * Usage: npm run bench:sso
 * Env: DATABASE_URL (server to create faultline_bench_sso on), BENCH_SIGN_INS (500),
 *      BENCH_RESULTS_DIR (bench/results: sso.json).
 */
const SIGN_INS = Number(process.env.BENCH_SIGN_INS ?? 500);
const PORT = 9411;
const DATABASE = 'faultline_bench_sso';
const TOKEN = 'bench-token';
const TARGET_P99_MS = 100;

async function signIns(baseUrl: string, responses: readonly string[]): Promise<number[]> {
  const latencies: number[] = [];
  for (const SAMLResponse of responses) {
    const started = performance.now();
    const answer = await fetch(`${baseUrl}/saml/acs/acme/`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ SAMLResponse }).toString(),
    });
    await answer.arrayBuffer();
    latencies.push(performance.now() - started);
    if (answer.status !== 302 || !answer.headers.get('set-cookie')) throw new Error(`sign-in answered ${answer.status}`);
  }
  return latencies;
}

const summary = (latencies: number[]) => ({
  count: latencies.length,
  p50Ms: round(percentile(latencies, 50)),
  p99Ms: round(percentile(latencies, 99)),
  maxMs: round(Math.max(...latencies)),
});

async function main(): Promise<void> {
  const { app, databaseUrl } = await startApiOnFreshDatabase(DATABASE, PORT, TOKEN, 'acme');
  const baseUrl = `http://127.0.0.1:${PORT}`;
  try {
    const configured = await fetch(`${baseUrl}/api/0/organizations/acme/auth-provider/`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ provider: 'saml2', idpEntityId: IDP_ENTITY_ID, ssoUrl: IDP_SSO_URL, x509cert: samlFixture('idp.crt') }),
    });
    if (configured.status !== 201) throw new Error(`auth provider: ${configured.status}`);
    const sp = samlify.ServiceProvider({ metadata: await (await fetch(`${baseUrl}/saml/metadata/acme/`)).text() });
    const people = Array.from({ length: SIGN_INS }, (_, index) => ({ id: `00u-bench-${index}`, email: `bench${index}@acme.example` }));
    const sign = () => Promise.all(people.map((person) => signedSamlResponse(sp, person, { now: new Date() })));

    const joining = await signIns(baseUrl, await sign());
    const returning = await signIns(baseUrl, await sign());
    const result = {
      environment: await environment(databaseUrl),
      justInTime: summary(joining),
      linked: summary(returning),
      targetP99Ms: TARGET_P99_MS,
    };
    console.log(JSON.stringify(result, null, 2));
    saveResults('sso.json', result);
    if (result.justInTime.p99Ms > TARGET_P99_MS || result.linked.p99Ms > TARGET_P99_MS) process.exitCode = 1;
  } finally {
    await app.close();
  }
}

void main();
