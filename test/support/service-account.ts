import { generateKeyPairSync } from 'node:crypto';

/** A Google service account key file with a real RSA key (firebase-admin signs its token request with it). */
export function fakeServiceAccount(projectId = 'herald-test'): string {
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048, privateKeyEncoding: { type: 'pkcs8', format: 'pem' }, publicKeyEncoding: { type: 'spki', format: 'pem' } });
  return JSON.stringify({ type: 'service_account', project_id: projectId, client_email: `push@${projectId}.iam.gserviceaccount.com`, private_key: privateKey, token_uri: 'https://oauth2.googleapis.com/token' });
}
