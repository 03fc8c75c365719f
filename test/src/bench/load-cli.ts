// node test/dist/bench/load-cli.js '<LoadSpec as JSON>'  -> prints the LoadResult as JSON
import { runLoad, type LoadSpec } from './load.js';

const spec = JSON.parse(process.argv[2] ?? '{}') as LoadSpec;
process.stdout.write(`${JSON.stringify(await runLoad(spec))}\n`);
