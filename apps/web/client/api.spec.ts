import { fieldErrors } from './api';

describe('fieldErrors', () => {
  it("takes the API's errors object, per field", () => {
    expect(fieldErrors(400, { detail: 'Invalid', errors: { scopes: ['Unknown scope: x', 'Another'] } }, ['scopes'])).toEqual({
      scopes: 'Unknown scope: x Another',
    });
  });

  it('puts a detail that names a field of the form next to that field', () => {
    expect(fieldErrors(400, { detail: 'url must be an absolute http(s) URL' }, ['url', 'events'])).toEqual({ url: 'url must be an absolute http(s) URL' });
    expect(fieldErrors(400, { detail: 'Invalid event name: event.exploded' }, ['url', 'events'])).toEqual({});
    expect(fieldErrors(400, { name: ['This field is required.'] }, ['name'])).toEqual({ name: 'This field is required.' });
  });

  it('leaves a 401, 403 or 404 to the form as a whole, whatever its detail names', () => {
    expect(fieldErrors(401, { detail: 'Invalid e-mail address or password.' }, ['username', 'password'])).toEqual({});
  });
});
