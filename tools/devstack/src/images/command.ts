import { buildImages } from './build.js';
import { loadImageOptions } from './options.js';
import { kubePlayCheck } from './kube-play.js';
import { smokeTest } from './smoke.js';

type Log = (message: string) => void;

/**
 * `npm run images` builds the seven service images (and the base images they need);
 * `images:smoke` builds them, then runs them against a private Kafka and FerretDB;
 * `images:kube` builds them, then runs the chart's dev render with `podman kube play`.
 */
export async function imagesCommand(command: 'images' | 'images:smoke' | 'images:kube', args: string[], log: Log): Promise<number> {
  const options = loadImageOptions(args);
  const started = Date.now();
  const { engine, images, tag } = await buildImages(options, log);
  log(`images ready in ${((Date.now() - started) / 1000).toFixed(0)} s`);
  if (command === 'images') return 0;
  if (command === 'images:smoke') await smokeTest(engine, images, log);
  if (command === 'images:kube') await kubePlayCheck(engine, images, tag, options.registry, log);
  return 0;
}
