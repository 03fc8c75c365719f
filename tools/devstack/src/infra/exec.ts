import { spawn, type SpawnOptions } from 'node:child_process';

/** Runs a build or fetch step to completion, keeping its output for the error message when it fails. */
export function exec(cmd: string, args: string[], options: SpawnOptions = {}): Promise<string> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(cmd, args, { ...options, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('error', (error) => reject(new Error(`cannot run ${cmd}: ${error.message}. ${toolHint(cmd)}`)));
    child.on('exit', (code) => {
      if (code === 0) resolvePromise(output);
      else reject(new Error(`${cmd} ${args.join(' ')} failed (exit ${code}):\n${output.slice(-4000)}`));
    });
  });
}

function toolHint(cmd: string): string {
  const hints: Record<string, string> = {
    java: 'Kafka needs a Java 17+ runtime (Debian: apt-get install openjdk-17-jre-headless).',
    mvn: 'The Kafka jars are resolved with Maven (Debian: apt-get install maven).',
    go: 'FerretDB is built with Go 1.22+ (https://go.dev/dl or Debian backports golang).',
  };
  return hints[cmd] ?? '';
}
