// node test/dist/bench/bare-cli.js  -> prints the port of a bare express route answering an empty precipitation page
import type { AddressInfo } from 'node:net';
import { createServer } from 'node:http';
import express from 'express';

/**
 * The framework's ceiling: express with its JSON body parser answering the same page the gateway
 * answers, with nothing behind it. A process of its own, like each service of the stack.
 */
const server = createServer(
  express()
    .use(express.json())
    .post('/bare', (_req, res) => {
      res.json({ precipitations: [], queryTimestamp: Date.now(), totalRecords: 0, pageNumber: 0, pageSize: 20 });
    }),
);
server.listen(0, '127.0.0.1', () => process.stdout.write(`${(server.address() as AddressInfo).port}\n`));
process.once('SIGTERM', () => server.close(() => process.exit(0)));
