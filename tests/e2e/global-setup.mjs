// Starts the static server for www/ and the mock model server once for all tests; their
// URLs reach the test workers through the environment.
import { fileURLToPath } from 'node:url';
import { startStatic } from '../../scripts/static-server.mjs';
import { startMock } from '../mock/server.mjs';

export default async function globalSetup() {
  const site = await startStatic({ root: fileURLToPath(new URL('../../www/', import.meta.url)), port: 0 });
  const mock = await startMock({ port: 0 });
  process.env.PAGE_URL = site.url;
  process.env.MOCK_URL = mock.url;
  return async () => {
    await site.close();
    await mock.close();
  };
}
