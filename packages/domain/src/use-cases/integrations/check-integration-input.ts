import type { Credentials } from '../../entities/integration';
import type { ProviderInfo } from '../../entities/provider-catalogue';
import { validateStepFilters } from '../../entities/step-filter';
import { DomainError, type FieldErrors } from '../../errors';
import { validateCredentials } from '../../rules/validate-credentials';

/** The checks create and update share: credentials for the provider, conditions, names. Throws one 422 naming every field. */
export function checkIntegrationInput(
  provider: ProviderInfo,
  input: { credentials?: Credentials; conditions?: unknown; name?: string; identifier?: string },
): void {
  const errors: FieldErrors = {};
  if (input.credentials !== undefined) Object.assign(errors, validateCredentials(provider, input.credentials));
  if (input.conditions !== undefined) Object.assign(errors, validateStepFilters(input.conditions));
  if (input.identifier !== undefined && !/^[A-Za-z0-9][A-Za-z0-9_.:-]*$/.test(input.identifier.trim())) {
    errors.identifier = { messages: ['must start with a letter or digit and use only letters, digits, - _ . :'], value: input.identifier };
  }
  if (input.name !== undefined && input.name.trim() === '') errors.name = { messages: ['must not be empty'], value: input.name };
  if (Object.keys(errors).length) throw DomainError.validation(errors);
}
