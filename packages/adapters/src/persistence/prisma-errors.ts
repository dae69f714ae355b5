import { Prisma } from '../generated/prisma/client';

export function isUniqueViolation(error: unknown): boolean {
  if (error instanceof Prisma.PrismaClientKnownRequestError) return error.code === 'P2002';
  return typeof error === 'object' && error !== null && (error as { code?: string }).code === '23505';
}

/** The write's result, or null when it hit a unique index (an identifier already taken). */
export async function nullOnUniqueViolation<T>(write: Promise<T>): Promise<T | null> {
  try {
    return await write;
  } catch (error) {
    if (isUniqueViolation(error)) return null;
    throw error;
  }
}

/** Prisma distinguishes SQL NULL from JSON null; a cleared JSON column is SQL NULL here. */
export function jsonOrNull(value: unknown): Prisma.InputJsonValue | typeof Prisma.DbNull | undefined {
  if (value === undefined) return undefined;
  return value === null ? Prisma.DbNull : (value as Prisma.InputJsonValue);
}
