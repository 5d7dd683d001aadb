import { type AppConfig, PolicyOutboundHttpClients } from '@faultline/platform';
import { OidcRelyingParty } from './oidc-relying-party';

/** Discovery is a request to a tenant-given address: the webhooks' outbound policy applies before anything connects. */
describe('OidcRelyingParty discovery', () => {
  const relyingParty = (allowPrivate: boolean) => {
    const config = { publicUrl: 'https://faultline.example.com', webhooks: { allowPrivate, allowedCidrs: [] } } as unknown as AppConfig;
    return new OidcRelyingParty(config, new PolicyOutboundHttpClients(config));
  };
  const client = { client_id: 'faultline', client_secret: 'secret' };

  it('refuses a loopback or private issuer unless the instance allows private targets', async () => {
    const strict = relyingParty(false);
    await expect(strict.configuration({ issuer: 'https://127.0.0.1:9/', ...client })).rejects.toThrow(/127\.0\.0\.1 is a loopback address/);
    await expect(strict.configuration({ issuer: 'https://10.0.0.1/', ...client })).rejects.toThrow(/10\.0\.0\.1 is a private address/);
    await strict.onModuleDestroy();
  });

  it('refuses an http issuer unless private targets are allowed (a local provider)', async () => {
    const strict = relyingParty(false);
    await expect(strict.configuration({ issuer: 'http://idp.example.com/', ...client })).rejects.toThrow(/must be an https URL/);
    await strict.onModuleDestroy();
  });

  it('gives the one callback every provider is given', async () => {
    const party = relyingParty(false);
    expect(party.callbackUrl).toBe('https://faultline.example.com/auth/sso/');
    await party.onModuleDestroy();
  });
});
