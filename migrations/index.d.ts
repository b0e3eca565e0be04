/** This folder: the SQL files and drizzle's meta/_journal.json. */
export declare const migrationsFolder: string;
