import type { feedV1 } from '@stormhook/proto';
import type { FeedKind, NormalisedRecord } from './normalised.js';
import type { Validated } from './problems.js';
import type { IngestRules } from './rules.js';
import { validateForecast } from './validate-forecast.js';
import { validateLightning } from './validate-lightning.js';
import { validatePrecipitation } from './validate-precipitation.js';
import { validateThunderstorm } from './validate-thunderstorm.js';

/** A decoded feed message with the feed it came from. */
export type FeedMessage =
  | { feed: 'precipitation'; message: feedV1.PrecipitationObservation }
  | { feed: 'lightning'; message: feedV1.LightningStrike }
  | { feed: 'thunderstorm'; message: feedV1.ThunderstormCell }
  | { feed: 'forecast'; message: feedV1.ForecastGrid };

/** Validates and normalises any feed message at time `now` (epoch ms). */
export function validateFeedMessage(input: FeedMessage, now: number, rules: IngestRules): Validated<NormalisedRecord> {
  switch (input.feed) {
    case 'precipitation':
      return validatePrecipitation(input.message, now, rules);
    case 'lightning':
      return validateLightning(input.message, now, rules);
    case 'thunderstorm':
      return validateThunderstorm(input.message, now, rules);
    case 'forecast':
      return validateForecast(input.message, now, rules);
  }
}

export type { FeedKind };
