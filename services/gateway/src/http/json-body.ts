import express, { type RequestHandler } from 'express';
import { ErrorMessages } from '@stormhook/errors';
import { sendError } from './errors.js';

const JSON_TYPES = ['application/json', 'application/*+json'];

function hasBody(headers: Record<string, string | string[] | undefined>): boolean {
  const length = headers['content-length'];
  return headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}

/** body-parser marks a request whose body it has read (and then skips it itself). */
function alreadyParsed(req: object): boolean {
  return (req as { _body?: unknown })._body === true;
}

/**
 * For operations that take a JSON body: 415 for any other media type, then parse with a size limit
 * (413 above it; 400 for malformed JSON, raised by the parser and answered by the error handler).
 */
export function jsonBody(limitBytes: number): RequestHandler[] {
  const requireJson: RequestHandler = (req, res, next) => {
    // Operations that check a queried place read the body in their guard already: no second media-type parse.
    if (alreadyParsed(req)) {
      next();
      return;
    }
    if (hasBody(req.headers) && !req.is(JSON_TYPES)) {
      sendError(req, res, 415, ErrorMessages.unsupportedMediaType);
      return;
    }
    next();
  };
  return [requireJson, express.json({ limit: limitBytes, type: JSON_TYPES, strict: true })];
}
