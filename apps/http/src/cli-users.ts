import { createInterface } from 'node:readline';
import { Writable } from 'node:stream';
import { DashboardSessions, DomainError, isDashboardRole, ManageDashboardUsers, systemClock, type TenancyRepository } from '@herald/domain';
import { ScryptPasswordHasher, SqlDashboardSessionRepository, SqlDashboardUserRepository, type Database } from '@herald/adapters';
import type { Config } from './config';

export const USERS_USAGE = `  users list                                list dashboard users (email, role, last sign-in)
  users create --email <e> [--role admin|viewer] [--password <p>]
                                            create a user; without --password it is asked for
                                            (hidden at a terminal, else the first line of stdin)
  users delete --email <e>                  delete a user and end their sessions (even the last admin)
  users reset-password --email <e> [--password <p>]
                                            set a new password; every session of the user ends`;

export interface UsersOptions {
  email?: string;
  role?: string;
  password?: string;
}

/** `pnpm herald users ...`: the operator's way in when no admin can sign in (or none exists yet). */
export async function runUsersCommand(action: string | undefined, options: UsersOptions, db: Database, config: Config, tenancy: TenancyRepository): Promise<boolean> {
  const sessions = new DashboardSessions(new SqlDashboardSessionRepository(db.pool), config.session, systemClock);
  const users = new ManageDashboardUsers(new SqlDashboardUserRepository(db.pool), tenancy, new ScryptPasswordHasher(), sessions);
  const email = () => options.email ?? fail('--email is required');
  if (action === 'list') {
    for (const u of await users.list()) console.log(`${u.email}\t${u.role}\t${u.id}\t${u.lastSignInAt ? `last sign-in ${u.lastSignInAt.toISOString()}` : 'never signed in'}`);
  } else if (action === 'create') {
    const role = options.role ?? 'admin';
    if (!isDashboardRole(role)) fail('--role must be admin or viewer');
    const user = await users.create({ email: email(), role, password: options.password ?? (await askPassword()) });
    console.log(`Created ${user.role} ${user.email} (${user.id}).`);
  } else if (action === 'delete') {
    const user = await users.byEmail(email());
    await users.delete(user.organizationId, user.id, { allowLastAdmin: true });
    console.log(`Deleted ${user.email}; their sessions have ended.`);
  } else if (action === 'reset-password') {
    const user = await users.byEmail(email());
    await users.resetPassword(user.id, options.password ?? (await askPassword()));
    console.log(`Set a new password for ${user.email}; their sessions have ended.`);
  } else {
    return false;
  }
  return true;
}

function fail(message: string): never {
  throw new DomainError('BAD_REQUEST', message);
}

/** Asked at a terminal without echo; read as the first line of stdin otherwise (`echo ... | pnpm herald users create`). */
async function askPassword(): Promise<string> {
  const interactive = process.stdin.isTTY;
  let muted = false;
  const output = new Writable({
    write: (chunk, _encoding, done) => {
      if (!muted) process.stdout.write(chunk);
      done();
    },
  });
  const rl = createInterface({ input: process.stdin, output: interactive ? output : undefined, terminal: interactive });
  try {
    if (!interactive) {
      for await (const line of rl) return line;
      return fail('no password given: pass --password or write it to stdin');
    }
    return await new Promise<string>((resolve) => {
      rl.question('Password (at least 12 characters): ', (answer) => {
        process.stdout.write('\n');
        resolve(answer);
      });
      muted = true;
    });
  } finally {
    rl.close();
  }
}
