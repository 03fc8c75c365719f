import { ConfigError } from '@stormhook/config';
import { createClient } from '@stormhook/grpc';
import { ensureTopics, TopicNames, topicSpec } from '@stormhook/kafka';
import { geoV1, identityV1 } from '@stormhook/proto';
import { internalTokensOf, startGrpcService, type PlatformOptions, type RunningGrpcService } from '@stormhook/service-kit';
import { loadOrCreateDevSigningKey } from './adapters/dev-signing-key.js';
import { GrpcGeoResolver } from './adapters/grpc-geo-resolver.js';
import { KafkaAccessChangePublisher } from './adapters/kafka-access-change-publisher.js';
import { KafkaMessagePublisher } from './adapters/kafka-message-publisher.js';
import type { Config } from './config.js';
import { systemClock, type Clock } from './ports/clock.js';
import type { GeoResolver } from './ports/geo-resolver.js';
import type { MessagePublisher } from './ports/message-publisher.js';
import { ensureIdentityIndexes } from './persistence/collections.js';
import { createMongoRepositories } from './persistence/create-repositories.js';
import { JWT_ALG, publicKeyPem } from './security/jwt.js';
import { PasswordHasher, PRODUCTION_ARGON2 } from './security/password-hasher.js';
import { parseSettings } from './settings.js';
import { identityHandlers } from './transport/grpc-handlers.js';
import { createIdentityUseCases } from './usecases/create-use-cases.js';

export interface IdentityStartOptions extends PlatformOptions {
  /** Replaces the geo service client (tests that need places geo does not have). */
  geo?: GeoResolver;
  /** Replaces the Kafka message publisher (tests that read the messages). */
  messages?: MessagePublisher;
  clock?: Clock;
}

/**
 * Starts the identity service: users, accounts, credentials, sessions, API keys and subscriptions
 * over gRPC (stormhook.identity.v1.IdentityService), its own database, message requests to the
 * notifier over Kafka, and the geo service for geographic access checks.
 */
export async function start(config: Config, opts: IdentityStartOptions = {}): Promise<RunningGrpcService> {
  // Text settings (keys, plan table) are parsed before anything connects: a bad value fails fast.
  const settings = parseSettings(config);
  const tokens = internalTokensOf(config, 'identity');
  const clock = opts.clock ?? systemClock;
  return startGrpcService(
    'identity',
    config,
    async (platform, server) => {
      const { logger, mongo } = platform;
      await ensureIdentityIndexes(mongo.db);
      const prefix = platform.topicPrefix;
      await ensureTopics(platform.kafka, [topicSpec(TopicNames.MessageRequested), topicSpec(TopicNames.UserChanged)], {
        ...(prefix ? { prefix } : {}),
        logger,
      });

      let signingKey = settings.signingKey;
      if (!signingKey) {
        const dev = await loadOrCreateDevSigningKey(mongo.db);
        signingKey = dev.key;
        logger.warn(
          { kid: signingKey.kid, created: dev.created },
          'IDENTITY_JWT_PRIVATE_KEY is not set: access tokens are signed with a development key kept in the database; production must set it',
        );
      }
      const verificationKeys = [signingKey, ...(settings.previousKey ? [settings.previousKey] : [])];
      const tokenAudience = { issuer: config.IDENTITY_TOKEN_ISSUER, audience: config.IDENTITY_TOKEN_AUDIENCE };

      const geoClient = opts.geo
        ? undefined
        : createClient(geoV1.GeoService, config.GEO_GRPC_ADDRESS, {
            deadlineMs: config.GRPC_DEADLINE_MS,
            internalToken: tokens.serviceTokenFor('geo'),
          });
      const repositories = createMongoRepositories(mongo.db);
      const uc = createIdentityUseCases({
        repositories,
        signingKey,
        verificationKeys,
        tokenAudience,
        messages: opts.messages ?? new KafkaMessagePublisher(platform.publisher, clock, settings.notifierMessageKey),
        accessChanges: new KafkaAccessChangePublisher(platform.publisher, clock, logger),
        geo: opts.geo ?? new GrpcGeoResolver(geoClient!),
        allowedLinkOrigins: settings.allowedLinkOrigins,
        clock,
        hasher: new PasswordHasher(
          { ...PRODUCTION_ARGON2, memoryKiB: config.IDENTITY_PASSWORD_HASH_MEMORY_KIB },
          config.IDENTITY_PASSWORD_HASH_BUDGET_MIB * 1024 * 1024,
        ),
        planTable: settings.planTable,
        sessions: { accessTtlSeconds: config.IDENTITY_ACCESS_TOKEN_TTL_S, refreshTtlSeconds: config.IDENTITY_REFRESH_TOKEN_TTL_S },
      });

      if (settings.admin) {
        const admin = await uc.adminBootstrap.ensureAdmin(settings.admin.email, settings.admin.password);
        if (!admin.ok) {
          const variable = admin.error.kind === 'validation' ? admin.error.field : 'STORMHOOK_ADMIN_EMAIL';
          throw new ConfigError([{ variable, problem: admin.error.message }]);
        }
        logger.info({ outcome: admin.value.outcome, userId: admin.value.userId, role: admin.value.role }, 'first administrator checked');
      }

      server.add(
        identityV1.IdentityService,
        identityHandlers({
          uc,
          users: repositories.users,
          logger,
          tokenKeys: {
            algorithm: JWT_ALG,
            issuer: tokenAudience.issuer,
            audience: tokenAudience.audience,
            keys: verificationKeys.map((key) => ({ kid: key.kid, publicKeyPem: publicKeyPem(key) })),
          },
        }),
      );

      // No TTL indexes on the embedded database: expired tokens and attempt counters are purged here.
      const housekeeping = setInterval(() => {
        uc.housekeeping.purgeExpired().then(
          (purged) => logger.debug({ purged }, 'expired identity records purged'),
          (error: unknown) => logger.warn({ err: error }, 'housekeeping failed; will retry'),
        );
      }, config.IDENTITY_HOUSEKEEPING_INTERVAL_MS);
      housekeeping.unref();

      return {
        async stop() {
          clearInterval(housekeeping);
          geoClient?.close();
        },
      };
    },
    opts,
  );
}
