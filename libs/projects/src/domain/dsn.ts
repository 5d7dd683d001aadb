/** DSN and endpoint URLs of a project key, in Sentry's formats, on Faultline's public URL. */
export function keyEndpoints(publicUrl: string, publicKey: string, secretKey: string, projectId: string) {
  const url = new URL(publicUrl);
  const path = url.pathname.replace(/\/+$/, '');
  const base = `${url.protocol}//${url.host}${path}`;
  const api = `${base}/api/${projectId}`;
  return {
    public: `${url.protocol}//${publicKey}@${url.host}${path}/${projectId}`,
    secret: `${url.protocol}//${publicKey}:${secretKey}@${url.host}${path}/${projectId}`,
    csp: `${api}/csp-report/?sentry_key=${publicKey}`,
    security: `${api}/security/?sentry_key=${publicKey}`,
    minidump: `${api}/minidump/?sentry_key=${publicKey}`,
    nel: `${api}/nel/?sentry_key=${publicKey}`,
    unreal: `${api}/unreal/${publicKey}/`,
    crons: `${api}/cron/___MONITOR_SLUG___/${publicKey}/`,
    cdn: `${base}/js-sdk-loader/${publicKey}.min.js`,
    playstation: `${api}/playstation/?sentry_key=${publicKey}`,
    integration: `${api}/integration/`,
    otlp_traces: `${api}/integration/otlp/v1/traces`,
    otlp_logs: `${api}/integration/otlp/v1/logs`,
  };
}
