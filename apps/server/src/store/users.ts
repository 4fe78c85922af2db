import { randomUUID } from "node:crypto";
import { Store } from "./store.js";
import { timestamp } from "./records.js";
import type { UserRecord } from "./records.js";

/** Fields a new user may be given; everything else is filled in. */
export interface NewUser {
  name: string;
  email?: string | null;
  email_verified_at?: string | null;
  password_hash?: string | null;
  avatar?: string | null;
}

/** Fields of a user that may change. */
export type UserChanges = Partial<Pick<UserRecord, "name" | "email" | "email_verified_at" | "password_hash" | "avatar">>;

/** Runs right after a user is created (for example: give the user the default alert set). */
export type UserCreatedHook = (user: Readonly<UserRecord>) => void;

/**
 * Users of the store. Names and emails are unique, compared case-insensitively. Every account
 * (CLI, sign-up, shadow account of a platform login, first start) is made by `create`, which runs
 * the `onCreated` hook before it returns, so every caller gets a user with what the hook adds.
 */
export class UsersRepository {
  constructor(
    private readonly store: Store,
    private readonly onCreated: UserCreatedHook = () => undefined,
  ) {}

  /** Creates a user with a fresh id and uuid, then runs the creation hook. */
  create(input: NewUser): UserRecord {
    const created = this.store.update((data, touch) => {
      const now = timestamp();
      const user: UserRecord = {
        id: Store.nextId(data, "users"),
        uuid: randomUUID(),
        name: input.name,
        email: input.email ?? null,
        email_verified_at: input.email_verified_at ?? null,
        password_hash: input.password_hash ?? null,
        avatar: input.avatar ?? null,
        created_at: now,
        updated_at: now,
      };
      data.users.push(user);
      touch({ users: [user.id] });
      return { ...user };
    });
    this.onCreated(created);
    return created;
  }

  /** The user with this id, or null. */
  get(id: number): UserRecord | null {
    const user = this.store.data.users.find((u) => u.id === id);
    return user ? { ...user } : null;
  }

  /** The user with this uuid, or null. */
  getByUuid(uuid: string): UserRecord | null {
    const user = this.store.data.users.find((u) => u.uuid === uuid);
    return user ? { ...user } : null;
  }

  /** The user with this name (case-insensitive), or null. */
  findByName(name: string): UserRecord | null {
    const wanted = name.toLowerCase();
    const user = this.store.data.users.find((u) => u.name.toLowerCase() === wanted);
    return user ? { ...user } : null;
  }

  /** The user with this email (case-insensitive), or null. */
  findByEmail(email: string): UserRecord | null {
    const wanted = email.toLowerCase();
    const user = this.store.data.users.find((u) => u.email !== null && u.email.toLowerCase() === wanted);
    return user ? { ...user } : null;
  }

  /** Applies `changes` and bumps `updated_at`; null when there is no such user. */
  update(id: number, changes: UserChanges): UserRecord | null {
    return this.store.update((data) => {
      const user = data.users.find((u) => u.id === id);
      if (!user) return null;
      Object.assign(user, changes, { updated_at: timestamp() });
      return { ...user };
    }, { users: [id] });
  }

  /** Every user, oldest first. */
  list(): UserRecord[] {
    return this.store.data.users.map((u) => ({ ...u }));
  }
}
