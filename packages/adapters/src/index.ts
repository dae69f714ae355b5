export * from './database/database';
export * from './database/embedded-postgres';
export * from './database/migrate';
export * from './persistence/cursor-pagination';
export * from './persistence/prisma-tenancy-repository';
export * from './persistence/prisma-subscriber-repository';
