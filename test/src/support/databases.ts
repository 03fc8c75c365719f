import { MongoClient } from 'mongodb';

/** Drops every database services created under a test's prefix (`<prefix>_<service>`). */
export async function dropPrefixedDatabases(mongoUrl: string, prefix: string): Promise<void> {
  const client = new MongoClient(mongoUrl, { serverSelectionTimeoutMS: 5_000 });
  await client.connect();
  try {
    const { databases } = await client.db('admin').admin().listDatabases({ nameOnly: true });
    for (const { name } of databases) if (name.startsWith(`${prefix}_`)) await client.db(name).dropDatabase();
  } finally {
    await client.close();
  }
}
