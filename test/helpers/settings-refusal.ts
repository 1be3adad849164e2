/** The refusal of a configuration that cannot make settings (shared/config/settings.ts). */
import { expect } from 'chai';
import { loadSettings, SettingsError } from '../../shared/config/index.js';

/**
 * The one-line message `loadSettings` refuses an environment with.
 * @param environment - the variables
 * @throws when the environment is accepted, or refused with another error than SettingsError
 */
export function refusal(environment: Record<string, string>): string {
  try {
    loadSettings(environment);
  } catch (error) {
    expect(error).to.be.instanceOf(SettingsError);
    return (error as Error).message;
  }
  throw new Error('loadSettings accepted an invalid environment');
}
