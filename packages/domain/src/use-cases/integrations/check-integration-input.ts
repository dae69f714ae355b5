import { SEND_LIMITS, type Credentials, type IntegrationConfigurations } from '../../entities/integration';
import type { ProviderInfo } from '../../entities/provider-catalogue';
import { validateStepFilters } from '../../entities/step-filter';
import { DomainError, type FieldErrors } from '../../errors';
import { validateCredentials } from '../../rules/validate-credentials';

/** The checks create and update share: credentials for the provider, conditions, names. Throws one 422 naming every field. */
export function checkIntegrationInput(
  provider: ProviderInfo,
  input: { credentials?: Credentials; conditions?: unknown; name?: string; identifier?: string; configurations?: IntegrationConfigurations },
): void {
  const errors: FieldErrors = {};
  const { sendRatePerSecond: rate, maxConcurrentSends: connections } = input.configurations ?? {};
  if (rate !== undefined && !(typeof rate === 'number' && rate > 0 && rate <= SEND_LIMITS.maxRatePerSecond)) {
    errors['configurations.sendRatePerSecond'] = { messages: [`must be a number of sends per second above 0, at most ${SEND_LIMITS.maxRatePerSecond}`], value: rate };
  }
  if (connections !== undefined && !(Number.isInteger(connections) && connections >= 1 && connections <= SEND_LIMITS.maxConcurrentSends)) {
    errors['configurations.maxConcurrentSends'] = { messages: [`must be a whole number from 1 to ${SEND_LIMITS.maxConcurrentSends}`], value: connections };
  }
  if (input.credentials !== undefined) Object.assign(errors, validateCredentials(provider, input.credentials));
  if (input.conditions !== undefined) Object.assign(errors, validateStepFilters(input.conditions));
  if (input.identifier !== undefined && !/^[A-Za-z0-9][A-Za-z0-9_.:-]*$/.test(input.identifier.trim())) {
    errors.identifier = { messages: ['must start with a letter or digit and use only letters, digits, - _ . :'], value: input.identifier };
  }
  if (input.name !== undefined && input.name.trim() === '') errors.name = { messages: ['must not be empty'], value: input.name };
  if (Object.keys(errors).length) throw DomainError.validation(errors);
}
