/**
 * The DSNs of a project key, in Sentry's formats, on Faultline's public URL. Sentry also lists
 * CSP, minidump, NEL, Unreal, cron, loader, PlayStation and OTLP endpoints here; Faultline does not
 * receive those, so it does not advertise URLs that would answer 404.
 */
export function keyEndpoints(publicUrl: string, publicKey: string, secretKey: string, projectId: string) {
  const url = new URL(publicUrl);
  const path = url.pathname.replace(/\/+$/, '');
  return {
    public: `${url.protocol}//${publicKey}@${url.host}${path}/${projectId}`,
    secret: `${url.protocol}//${publicKey}:${secretKey}@${url.host}${path}/${projectId}`,
  };
}
