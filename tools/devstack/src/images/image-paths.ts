import { join } from 'node:path';
import { paths, stackDir } from '../paths.js';

/** Ignored folders of the image steps: generated config and staging, and the cached base inputs. */
export const imagesDir = join(stackDir, 'images');
export const imagesCacheDir = join(paths.cache, 'images');
export const imagesLogDir = join(paths.logs, 'images');
