/**
 * Tokens of the `jwt` auth mode for tests: HS256 with the tests' shared secret, as a caller's identity provider would
 * sign them.
 */
import { SignJWT } from 'jose';

/** The `JWT_SECRET_KEY` of every test app in `jwt` mode. */
export const TEST_JWT_SECRET = 'a-test-secret-of-reasonable-length-0123456789';

/** The environment of a test app in `jwt` mode. */
export const JWT_ENVIRONMENT = { AUTH_MODE: 'jwt', JWT_SECRET_KEY: TEST_JWT_SECRET };

/**
 * Sign a token.
 * @param claims - the payload (`user_id`, `storage_scopes`, …)
 * @param expiresIn - a jose duration (`5m`) or an absolute expiry in epoch seconds
 * @param secret - the signing secret; the tests' own by default
 */
export function signTestJwt(
  claims: Record<string, unknown>,
  expiresIn: string | number = '5m',
  secret = TEST_JWT_SECRET,
): Promise<string> {
  return new SignJWT(claims)
    .setProtectedHeader({ alg: 'HS256' })
    .setIssuedAt()
    .setExpirationTime(expiresIn)
    .sign(new TextEncoder().encode(secret));
}
